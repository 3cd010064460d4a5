"""tools/animate_frames.py on a tiny generated frames directory: frames in
frame order (not name order of other files), the page self-contained, and
errors for an empty directory and a file that is not a PNG."""

import base64
import os
import struct
import subprocess
import sys
import tempfile
import unittest
import zlib

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)),
                      "animate_frames.py")


def tiny_png(width, height, rgb):
    """A valid 8-bit RGB PNG filled with one color."""
    def chunk(kind, data):
        body = kind + data
        return struct.pack(">I", len(data)) + body + struct.pack(
            ">I", zlib.crc32(body) & 0xFFFFFFFF)
    rows = b"".join(b"\x00" + bytes(rgb) * width for _ in range(height))
    return (b"\x89PNG\r\n\x1a\n" +
            chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)) +
            chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


def run(*args):
    return subprocess.run([sys.executable, SCRIPT, *args],
                          capture_output=True, text=True)


class AnimateFramesTest(unittest.TestCase):

    def setUp(self):
        self.dir = tempfile.mkdtemp(dir=os.environ.get("TEST_TMPDIR"))

    def write(self, name, data):
        with open(os.path.join(self.dir, name), "wb") as f:
            f.write(data)

    def test_frames_in_order_in_one_page(self):
        colors = {20: (255, 0, 0), 5: (0, 255, 0), 100: (0, 0, 255)}
        for number, rgb in colors.items():
            self.write(f"frame_{number:06d}.png", tiny_png(4, 3, rgb))
        self.write("notes.txt", b"not a frame")
        self.write("final.png", tiny_png(4, 3, (1, 2, 3)))  # --png, not a frame
        result = run(self.dir, "--fps", "10")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("3 frames (5 to 100)", result.stdout)
        with open(os.path.join(self.dir, "animation.html"), encoding="utf-8") as f:
            page = f.read()
        uris = [
            "data:image/png;base64," + base64.b64encode(tiny_png(4, 3, colors[n])).decode()
            for n in (5, 20, 100)
        ]
        positions = [page.find(f'"{uri}"') for uri in uris]
        self.assertTrue(all(p >= 0 for p in positions), "a frame is missing")
        self.assertEqual(positions, sorted(positions), "frames out of order")
        self.assertEqual(page.count("data:image/png;base64,"), 4)  # 3 + the first shown
        self.assertIn('max="2"', page)           # the slider
        self.assertIn("const numbers = [5, 20, 100];", page)
        self.assertIn("const fps = 10.0;", page)
        self.assertIn('width="4" height="3"', page)
        self.assertNotIn("http", page)            # nothing fetched
        self.assertNotIn(base64.b64encode(tiny_png(4, 3, (1, 2, 3))).decode(), page)

    def test_output_option(self):
        self.write("frame_000001.png", tiny_png(2, 2, (9, 9, 9)))
        output = os.path.join(self.dir, "movie.html")
        result = run(self.dir, "-o", output, "--title", "a <b> title")
        self.assertEqual(result.returncode, 0, result.stderr)
        with open(output, encoding="utf-8") as f:
            self.assertIn("<title>a &lt;b&gt; title</title>", f.read())

    def test_empty_directory_fails(self):
        result = run(self.dir)
        self.assertEqual(result.returncode, 2)
        self.assertIn("no frame_NNNNNN.png files", result.stderr)

    def test_not_a_png_fails(self):
        self.write("frame_000001.png", b"GIF89a not a png at all")
        result = run(self.dir)
        self.assertEqual(result.returncode, 2)
        self.assertIn("is not a PNG file", result.stderr)


if __name__ == "__main__":
    unittest.main()
