"""Draws the PNG app icons (home screen, splash, maskable) from the same shape as icon.svg.

Run from this folder: python3 make_icons.py  (needs Pillow). The PNGs are full-bleed squares:
iOS and Android round the corners themselves, and the pin stays inside the maskable safe zone.
"""
import math
from PIL import Image, ImageDraw

BLUE = (10, 108, 255, 255)
WHITE = (255, 255, 255, 255)


def icon(size: int) -> Image.Image:
    k = 4  # supersampling for smooth edges
    s = size * k / 512
    img = Image.new("RGBA", (size * k, size * k), BLUE)
    d = ImageDraw.Draw(img)
    cx, cy, r, tip = 256, 218, 124, 418
    # The teardrop: the head circle and the triangle to the tip through its tangent points.
    theta = math.acos(r / (tip - cy))
    p1 = (cx + r * math.sin(theta), cy + r * math.cos(theta))
    p2 = (cx - r * math.sin(theta), cy + r * math.cos(theta))
    d.polygon([(x * s, y * s) for x, y in [(cx, tip), p1, p2]], fill=WHITE)
    d.ellipse([(cx - r) * s, (cy - r) * s, (cx + r) * s, (cy + r) * s], fill=WHITE)
    d.ellipse([(cx - 50) * s, (cy - 50) * s, (cx + 50) * s, (cy + 50) * s], fill=BLUE)
    return img.resize((size, size), Image.LANCZOS)


if __name__ == "__main__":
    for name, size in [("icon-192.png", 192), ("icon-512.png", 512), ("apple-touch-icon.png", 180)]:
        icon(size).convert("RGB").save(name, optimize=True)
        print("wrote", name)
