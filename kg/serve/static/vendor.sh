#!/usr/bin/env bash
# Vendor YASGUI (@zazuko/yasgui, MIT) into yasgui/ beside this script, from the npm registry, so the
# SPARQL page loads nothing from a CDN. Idempotent: run again to restore or check the files (git diff
# shows any change). To upgrade, change VERSION and INTEGRITY together
# (npm view @zazuko/yasgui@VERSION dist.integrity).
set -euo pipefail
VERSION=4.6.2
INTEGRITY=sha512-Zw45KdPoAE1KRaAoxIHdQqeJxvaVG1oQdntw0hy0ktX35Zu8ZccuOLrXCLwR+GU+0xMzLw8Mjw6BkSZV2vUuQw==

here="$(cd "$(dirname "$0")" && pwd)"
scratch="$(mktemp -d)"
trap 'rm -rf "$scratch"' EXIT
(cd "$scratch" && npm pack --silent "@zazuko/yasgui@$VERSION" >/dev/null)
tarball="$scratch/zazuko-yasgui-$VERSION.tgz"
actual="$(node -e 'const c = require("crypto"), fs = require("fs");
process.stdout.write("sha512-" + c.createHash("sha512").update(fs.readFileSync(process.argv[1])).digest("base64"));' "$tarball")"
if [ "$actual" != "$INTEGRITY" ]; then
    echo "vendor.sh: @zazuko/yasgui@$VERSION has integrity $actual, expected $INTEGRITY" >&2
    exit 1
fi
tar -xzf "$tarball" -C "$scratch"
mkdir -p "$here/yasgui"
cp "$scratch/package/build/yasgui.min.js" "$scratch/package/build/yasgui.min.css" "$here/yasgui/"
# The package declares "license": "MIT" but ships no licence file: the text is its repository's.
cat > "$here/yasgui/LICENSE" <<LICENSE
@zazuko/yasgui $VERSION — yasgui.min.js and yasgui.min.css, unmodified from the npm package.
Authors: Triply <info@triply.cc> and Zazuko GmbH (package.json); https://github.com/rdfjs/Yasgui.
The npm package declares the MIT License and ships no licence file; the text below is the LICENSE
of the project's repository. yasgui.min.js bundles the package's dependencies (@zazuko/yasqe,
@zazuko/yasr, CodeMirror, DOMPurify and others), each under its own licence.

The MIT License (MIT)

Permission is hereby granted, free of charge, to any person obtaining a copy
of this software and associated documentation files (the "Software"), to deal
in the Software without restriction, including without limitation the rights
to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
copies of the Software, and to permit persons to whom the Software is
furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in
all copies or substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR
IMPLIED, INCLUDING BUT NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY,
FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO EVENT SHALL THE
AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER
LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM,
OUT OF OR IN CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN
THE SOFTWARE.
LICENSE
echo "vendored @zazuko/yasgui $VERSION into $here/yasgui"
