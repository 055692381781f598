"""Schemathesis hooks for test_fuzz.py: what it cannot make up by itself. An IMDF archive upload
(`importVenue`, application/zip) gets zips, broken zips and plain bytes: a zip of feature
files without a venue, one of JSON that is not GeoJSON, a truncated zip and random bytes."""
import io
import zipfile

import schemathesis
from hypothesis import strategies as st


def _zip(files):
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for name, text in files.items():
            z.writestr(name, text)
    return out.getvalue()


_json_text = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=20),
                          lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                          max_leaves=12).map(repr)
_names = st.sampled_from(["manifest.json", "venue.geojson", "level.geojson", "unit.geojson", "opening.geojson",
                          "building.geojson", "amenity.geojson", "notes.txt", "a/unit.geojson"])
_archives = st.dictionaries(_names, _json_text, max_size=6).map(_zip)

schemathesis.openapi.media_type("application/zip", st.one_of(
    _archives,
    _archives.map(lambda b: b[: len(b) // 2]),
    st.binary(max_size=512),
))
