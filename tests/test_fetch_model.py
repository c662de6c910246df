"""``kb fetch --model`` against an HTTP server started on 127.0.0.1 by the test, never the
internet. The server serves the tests' own sentence model (``tests/fixtures/semantic/model``)
under the layout of the model's page on Hugging Face (``tokenizer.json``,
``onnx/model.onnx``); the files' sizes and checksums the fetch must find are the fixture's,
read from its files."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from kb import fetch_model as module
from kb.cli import cli
from kb.fetch import FetchError
from kb.fetch_model import FILES, ModelFile, fetch_model
from kb.index.semantic import MODEL_FILE, TOKENIZER_FILE
from tests.test_fetch import Site, no_proxy, site  # noqa: F401 - fixtures

MODEL = Path(__file__).resolve().parent / "fixtures" / "semantic" / "model"
SERVED = {"/m/tokenizer.json": MODEL / TOKENIZER_FILE, "/m/onnx/model.onnx": MODEL / MODEL_FILE}


def fixture_files() -> tuple[ModelFile, ...]:
    """The fixture model's files, as :data:`kb.fetch_model.FILES` pins the published ones."""
    return tuple(ModelFile(path.name, remote.removeprefix("/m/"), path.stat().st_size,
                           hashlib.sha256(path.read_bytes()).hexdigest())
                 for remote, path in SERVED.items())


@pytest.fixture
def hub(site: Site) -> Site:  # noqa: F811 - the fixture imported above
    for remote, path in SERVED.items():
        site.routes[remote] = (200, path.read_bytes())
    return site


def test_the_pinned_files_are_the_ones_the_model_folder_needs():
    assert {f.name for f in FILES} == {MODEL_FILE, TOKENIZER_FILE}
    assert all(len(f.sha256) == 64 and f.size > 0 for f in FILES)


def test_both_files_are_stored_and_a_second_fetch_downloads_nothing(hub, tmp_path):
    dest = tmp_path / "model"
    got = fetch_model(dest, f"{hub.base}/m", timeout=20, files=fixture_files())
    assert sorted(got.written) == [MODEL_FILE, TOKENIZER_FILE]
    for name in (MODEL_FILE, TOKENIZER_FILE):
        assert (dest / name).read_bytes() == (MODEL / name).read_bytes()
    hub.routes.clear()  # a second fetch that asked the server would fail
    again = fetch_model(dest, f"{hub.base}/m", timeout=20, files=fixture_files())
    assert again.written == ()


def test_a_file_that_is_not_the_published_one_writes_nothing(hub, tmp_path):
    status, body = hub.routes["/m/onnx/model.onnx"]
    hub.routes["/m/onnx/model.onnx"] = (status, body[:-1] + bytes([body[-1] ^ 1]))
    dest = tmp_path / "model"
    with pytest.raises(FetchError, match=r"/m/onnx/model.onnx: not the published model.onnx "
                                         r"\(\d+ bytes, sha256 [0-9a-f]{64}; expected"):
        fetch_model(dest, f"{hub.base}/m", timeout=20, files=fixture_files())
    assert not dest.exists()  # not even the tokenizer, which was whole


def test_a_cut_download_leaves_the_folder_as_it_was(hub, tmp_path):
    dest = tmp_path / "model"
    dest.mkdir()
    (dest / TOKENIZER_FILE).write_bytes((MODEL / TOKENIZER_FILE).read_bytes())
    status, body = hub.routes["/m/onnx/model.onnx"]
    hub.routes["/m/onnx/model.onnx"] = (status, body[:len(body) // 2])
    hub.lengths["/m/onnx/model.onnx"] = len(body)
    with pytest.raises(FetchError, match="cut short"):
        fetch_model(dest, f"{hub.base}/m", timeout=20, files=fixture_files())
    assert [p.name for p in dest.iterdir()] == [TOKENIZER_FILE]  # no hidden part left


def test_a_longer_body_is_cut_at_the_published_size(hub, tmp_path):
    status, body = hub.routes["/m/tokenizer.json"]
    hub.routes["/m/tokenizer.json"] = (status, body + b" ")
    with pytest.raises(FetchError, match=r"more than the .* expected; nothing written"):
        fetch_model(tmp_path / "model", f"{hub.base}/m", timeout=20, files=fixture_files())
    assert not (tmp_path / "model").exists()


def test_the_published_checksums_refuse_another_model(hub, tmp_path):
    result = CliRunner().invoke(cli, ["--index", str(tmp_path / "idx"), "fetch", "--model",
                                      "--url", f"{hub.base}/m", "--dest", str(tmp_path / "m"),
                                      "--no-build"])
    assert result.exit_code == 1
    assert "not the published" in result.output and result.output.count("\n") == 1
    assert not (tmp_path / "m").exists()


def test_the_command_stores_the_model_and_rebuilds_the_index_with_it(hub, tmp_path,
                                                                     monkeypatch):
    pytest.importorskip("onnxruntime", reason='semantic ranking needs pip install "kb[semantic]"')
    from kb import api
    from tests.index.test_semantic import TEXTS, excerpt

    root = tmp_path / "idx"
    api.build_index(root, [excerpt(tmp_path / "corpus")], embedded=False, only=True)
    monkeypatch.setattr(module, "FILES", fixture_files())
    result = CliRunner().invoke(cli, ["--index", str(root), "fetch", "--model", "--url",
                                      f"{hub.base}/m", "--dest", str(tmp_path / "m"), "--json"])
    assert result.exit_code == 0, result.output
    out = json.loads(result.output)
    assert out["built"]["vectors"] == TEXTS
    assert {name: f["written"] for name, f in out["files"].items()} == {
        MODEL_FILE: True, TOKENIZER_FILE: True}
    again = CliRunner().invoke(cli, ["--index", str(root), "fetch", "--model", "--url",
                                     f"{hub.base}/m", "--dest", str(tmp_path / "m")])
    assert again.exit_code == 0, again.output
    assert "already stored, unchanged" in again.output


def test_the_api_stores_the_model_where_kb_model_says_and_builds_only_if_asked(
        hub, tmp_path, monkeypatch):
    from kb import api

    monkeypatch.setattr(module, "FILES", fixture_files())
    monkeypatch.setenv("KB_MODEL", str(tmp_path / "m"))
    monkeypatch.setenv("KB_INDEX", str(tmp_path / "idx"))  # where a build would write
    got = api.fetch_model(url=f"{hub.base}/m", build=False)
    assert got.folder == tmp_path / "m"
    assert (tmp_path / "m" / MODEL_FILE).read_bytes() == (MODEL / MODEL_FILE).read_bytes()
    assert not (tmp_path / "idx").exists()
