"""A viewer screenshot is a PNG of the given size that is not blank: its pixels take many
values. Usage: png_check.py FILE WIDTH HEIGHT (the viewer tests); exits 1 with the reason."""
import struct
import sys
import zlib

data = open(sys.argv[1], "rb").read()
if data[:8] != b"\x89PNG\r\n\x1a\n":
    sys.exit("not a PNG")
w, h = struct.unpack(">II", data[16:24])
if (w, h) != (int(sys.argv[2]), int(sys.argv[3])):
    sys.exit(f"the PNG is {w}x{h}, not {sys.argv[2]}x{sys.argv[3]}")
pos, idat = 8, b""
while pos < len(data):
    n, = struct.unpack(">I", data[pos:pos + 4])
    if data[pos + 4:pos + 8] == b"IDAT":
        idat += data[pos + 8:pos + 8 + n]
    pos += 12 + n
if len(set(zlib.decompress(idat)[::7])) <= 40:
    sys.exit("the image is nearly blank")
