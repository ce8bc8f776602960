#!/bin/sh
# Renders the raster sizes of the application icon from gpuscope.svg (the source of truth).
# Qt is not built with its SVG plugin everywhere, so the window icon is loaded from these PNGs.
# Needs rsvg-convert (Debian: librsvg2-bin).
set -e
cd "$(dirname "$0")"
for size in 16 24 32 48 64 128 256; do
  rsvg-convert -w "$size" -h "$size" gpuscope.svg -o "gpuscope-$size.png"
done
