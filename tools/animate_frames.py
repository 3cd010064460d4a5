#!/usr/bin/env python3
"""Assembles the PNG frames //demos:particles writes into one HTML page.

  bazel run -c opt //demos:particles -- --frames_dir=/tmp/frames --frame_every=5
  python3 tools/animate_frames.py /tmp/frames            # -> /tmp/frames/animation.html
  python3 tools/animate_frames.py /tmp/frames -o movie.html --fps 30

The demo's --frames_dir gets one 8-bit RGB PNG per written frame, named
frame_NNNNNN.png after the frame number. This script takes every such file,
in frame order (other files are ignored), and writes a single self-contained
HTML page: the frames embedded as base64 data URIs, a play/pause button, a
slider to scrub through them, and the frame number. The page needs nothing
else (no network, no other file) and opens in any browser.

Python standard library only. Exits with status 2 and a message when the
directory holds no frames or a frame is not a PNG.
"""

import argparse
import base64
import html
import os
import re
import struct
import sys

FRAME_NAME = re.compile(r"^frame_(\d+)\.png$")
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


class FrameError(Exception):
    pass


def find_frames(directory):
    """[(frame number, path)] of the frames in `directory`, in frame order."""
    try:
        names = os.listdir(directory)
    except OSError as error:
        raise FrameError(f"cannot read {directory}: {error.strerror}")
    frames = []
    for name in names:
        match = FRAME_NAME.match(name)
        if match:
            frames.append((int(match.group(1)), os.path.join(directory, name)))
    if not frames:
        raise FrameError(f"no frame_NNNNNN.png files in {directory} (write some "
                         "with //demos:particles --frames_dir=DIR)")
    return sorted(frames)


def png_size(data, path):
    """(width, height) from a PNG's IHDR chunk."""
    if len(data) < 24 or not data.startswith(PNG_SIGNATURE) or data[12:16] != b"IHDR":
        raise FrameError(f"{path} is not a PNG file")
    return struct.unpack(">II", data[16:24])


PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{title}</title>
<style>
  body {{ background: #111; color: #ddd; font: 14px sans-serif; margin: 16px; }}
  #frame {{ display: block; max-width: 100%; image-rendering: pixelated; }}
  .controls {{ display: flex; gap: 12px; align-items: center; margin-top: 8px; }}
  #slider {{ flex: 1; }}
  button {{ min-width: 5em; }}
</style>
</head>
<body>
<h1>{title}</h1>
<img id="frame" width="{width}" height="{height}" alt="frame" src="{first}">
<div class="controls">
  <button id="play">Pause</button>
  <input id="slider" type="range" min="0" max="{last_index}" value="0">
  <span id="label"></span>
</div>
<script>
const frames = [
{frames}
];
const numbers = [{numbers}];
const fps = {fps};
const img = document.getElementById("frame");
const slider = document.getElementById("slider");
const label = document.getElementById("label");
const button = document.getElementById("play");
let index = 0;
let timer = null;
function show(i) {{
  index = i;
  img.src = frames[i];
  slider.value = i;
  label.textContent = "frame " + numbers[i] + " (" + (i + 1) + "/" + frames.length + ")";
}}
function play() {{
  timer = setInterval(() => show((index + 1) % frames.length), 1000 / fps);
  button.textContent = "Pause";
}}
function pause() {{
  clearInterval(timer);
  timer = null;
  button.textContent = "Play";
}}
button.addEventListener("click", () => (timer === null ? play() : pause()));
slider.addEventListener("input", () => {{ pause(); show(Number(slider.value)); }});
show(0);
play();
</script>
</body>
</html>
"""


def build_page(frames, fps, title):
    """The HTML text for [(frame number, path)]."""
    uris, size = [], None
    for _, path in frames:
        with open(path, "rb") as f:
            data = f.read()
        frame_size = png_size(data, path)
        size = size or frame_size
        uris.append("data:image/png;base64," + base64.b64encode(data).decode("ascii"))
    return PAGE.format(
        title=html.escape(title),
        width=size[0],
        height=size[1],
        first=uris[0],
        last_index=len(uris) - 1,
        frames=",\n".join(f'"{uri}"' for uri in uris),
        numbers=", ".join(str(number) for number, _ in frames),
        fps=fps,
    )


def main(argv=None):
    parser = argparse.ArgumentParser(
        description="Assemble //demos:particles --frames_dir frames into one "
        "self-contained HTML animation.")
    parser.add_argument("frames_dir", help="the directory given to --frames_dir")
    parser.add_argument("-o", "--output",
                        help="the HTML file to write (default: FRAMES_DIR/animation.html)")
    parser.add_argument("--fps", type=float, default=15.0,
                        help="frames per second when playing (default 15)")
    parser.add_argument("--title", default="Strata particles",
                        help="the page title")
    args = parser.parse_args(argv)
    if args.fps <= 0:
        parser.error("--fps must be positive")
    output = args.output or os.path.join(args.frames_dir, "animation.html")
    try:
        frames = find_frames(args.frames_dir)
        page = build_page(frames, args.fps, args.title)
    except FrameError as error:
        print(f"animate_frames: {error}", file=sys.stderr)
        return 2
    with open(output, "w", encoding="utf-8") as f:
        f.write(page)
    print(f"{output}: {len(frames)} frames ({frames[0][0]} to {frames[-1][0]}), "
          f"{os.path.getsize(output)} bytes")
    return 0


if __name__ == "__main__":
    sys.exit(main())
