import hashlib
import tomllib

from kb.corpus import DOCUMENTATION_FILES, discover, embedded_corpus


def test_manifest_describes_every_embedded_document_truthfully():
    folder = embedded_corpus()
    manifest = tomllib.loads((folder / "MANIFEST.toml").read_text(encoding="utf-8"))
    documents = {d["file"]: d for d in manifest["document"]}
    on_disk = {p.name for p in folder.iterdir()
               if p.is_file() and p.name not in DOCUMENTATION_FILES}
    assert set(documents) == on_disk
    for name, doc in documents.items():
        assert hashlib.sha256((folder / name).read_bytes()).hexdigest() == doc["sha256"], name
        assert doc["what"] and doc["origin"]


def test_discover_skips_documentation_and_hidden_files(tmp_path):
    (tmp_path / "README.md").write_text("about")
    (tmp_path / ".hidden").write_text("x")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "doc.txt").write_text("text")
    found = list(discover([tmp_path, tmp_path / "missing"]))
    assert [getattr(f, "display", None) for f in found] == ["sub/doc.txt", None]
    assert found[1].reason == "not a folder"
