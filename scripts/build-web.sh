#!/usr/bin/env bash
# The playground as a static site with no server: scripts/build-web.sh OUT
#
# Writes OUT/ with the page (the same index.html, app.js and style.css that `pencilbox serve`
# serves, from crates/cli/assets), pencilbox's JSON API compiled to WebAssembly
# (crates/web, run by worker.js in a Web Worker), a web app manifest with icons, and a service
# worker that precaches every file, so the page works offline after its first load and can be
# installed on a phone's home screen. Serve OUT/ with any static file server, e.g.
#   python3 -m http.server -d OUT 8000      # then open http://127.0.0.1:8000/
#
# Needs only rustup's toolchain: adds the wasm32-unknown-unknown target when missing and
# installs wasm-bindgen-cli, at exactly the version of the wasm-bindgen crate in Cargo.lock,
# into target/tools (PENCILBOX_TOOLS=DIR for another place), once.
set -euo pipefail

if [ $# -ne 1 ] || [ "${1#-}" != "$1" ]; then
  echo "usage: scripts/build-web.sh OUT" >&2
  exit 2
fi
out=$1
root="$(cd "$(dirname "$0")/.." && pwd)"
cd "$root"
target_dir="${CARGO_TARGET_DIR:-$root/target}"
tools="${PENCILBOX_TOOLS:-$target_dir/tools}"

# 1. The compilation target.
if command -v rustup >/dev/null 2>&1; then
  if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
    echo "== rustup target add wasm32-unknown-unknown"
    rustup target add wasm32-unknown-unknown
  fi
fi

# 2. wasm-bindgen-cli at the version of the wasm-bindgen crate in Cargo.lock (the two must match).
version=$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/[^0-9.]/, ""); print; exit }' Cargo.lock)
if [ -z "$version" ]; then
  echo "error: no wasm-bindgen in Cargo.lock" >&2
  exit 1
fi
bindgen="$tools/bin/wasm-bindgen"
if ! [ -x "$bindgen" ] || [ "$("$bindgen" --version 2>/dev/null | awk '{print $2}')" != "$version" ]; then
  echo "== cargo install wasm-bindgen-cli $version into $tools"
  # --locked: the versions wasm-bindgen-cli was released with; when the registry no longer
  # offers one of them (a yanked crate), the newest compatible versions instead.
  if ! cargo install wasm-bindgen-cli --version "=$version" --locked --root "$tools"; then
    echo "note: the locked install failed; installing with the newest compatible dependencies"
    cargo install wasm-bindgen-cli --version "=$version" --root "$tools"
  fi
fi

# 3. The WebAssembly module: the `web` profile (release with fat LTO, see Cargo.toml);
# PENCILBOX_WEB_PROFILE=web-ci builds the same code several times faster, larger and a little
# slower (what CI's browser tests use; never for publishing).
profile="${PENCILBOX_WEB_PROFILE:-web}"
echo "== cargo build -p pencilbox-web --target wasm32-unknown-unknown --profile $profile"
cargo build -p pencilbox-web --target wasm32-unknown-unknown --profile "$profile"
wasm="$target_dir/wasm32-unknown-unknown/$profile/pencilbox_web.wasm"

# 4. The JavaScript glue for a classic Web Worker (importScripts, no bundler, no modules).
rm -rf "$out"
mkdir -p "$out"
# The function names (a third of the file) go: a panic's message still reaches the console.
"$bindgen" --target no-modules --no-typescript --remove-name-section --out-dir "$out" "$wasm"

# 5. The page and its files, and the config that sends its requests to the worker.
assets=crates/cli/assets
cp "$assets"/index.html "$assets"/app.js "$assets"/style.css "$assets"/favicon.svg \
  "$assets"/manifest.webmanifest "$assets"/icon.svg "$assets"/icon-192.png "$assets"/icon-512.png "$out"/
cp crates/web/static/worker.js "$out"/
files=(index.html app.js style.css favicon.svg manifest.webmanifest icon.svg icon-192.png icon-512.png
  worker.js pencilbox_web.js pencilbox_web_bg.wasm)
# The build's version: a hash of every file it serves (a new build, a new service worker).
build=$(cd "$out" && cat "${files[@]}" | sha256sum | cut -c1-16)
cat >"$out/config.js" <<EOF
// The static build (scripts/build-web.sh): the API runs in this browser, in a Web Worker.
window.PENCILBOX = { api: 'worker', worker: 'worker.js', serviceWorker: 'sw.js', build: '$build' };
EOF
files+=(config.js)

# 6. The service worker: precaches the page's address and every file, in a cache named after
# the build.
list="'./'"
for f in "${files[@]}"; do list="$list, '$f'"; done
sed -e "s/__VERSION__/$build/" -e "s|__FILES__|$list|" crates/web/static/sw.js >"$out/sw.js"

plain=$(wc -c <"$out/pencilbox_web_bg.wasm")
gz=$(gzip -9 -c "$out/pencilbox_web_bg.wasm" | wc -c)
echo "== wrote $out (build $build)"
printf 'pencilbox_web_bg.wasm: %s bytes (%s KiB), gzipped %s bytes (%s KiB)\n' \
  "$plain" "$((plain / 1024))" "$gz" "$((gz / 1024))"
echo "serve it with: python3 -m http.server -d $out 8000   (then open http://127.0.0.1:8000/)"
