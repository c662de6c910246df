"""``kb build`` on a corpus folder full of bad files: it names each with the reason, builds the
rest, exits 0 (1 with --strict), and prints no traceback."""

from __future__ import annotations

import gzip
import json
import os
import shutil
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from kb.build import build
from kb.cli import cli
from kb.corpus import embedded_corpus
from kb.reader import KnowledgeBase

GOOD = "000_3e28a88beae8982b.txt"  # the Echo keyword page: rule 702.27 in French and English


def corpus(tmp_path: Path) -> Path:
    """A folder with one good document."""
    folder = tmp_path / "corpus"
    folder.mkdir()
    shutil.copy(embedded_corpus() / GOOD, folder / GOOD)
    return folder


def kb_build(tmp_path: Path, folder: Path, *options: str):
    return CliRunner().invoke(cli, ["--index", str(tmp_path / "idx"), "build", "--no-embedded",
                                    "--corpus", str(folder), *options])


def problems(stderr: str) -> dict[str, str]:
    """``problem: FILE: REASON`` lines, by the file's name."""
    out = {}
    for line in stderr.splitlines():
        if line.startswith("problem: "):
            file, reason = line.removeprefix("problem: ").split(": ", 1)
            out[Path(file).name] = reason
    return out


def bad_folder(tmp_path: Path) -> Path:
    folder = corpus(tmp_path)
    (folder / "empty.txt").write_bytes(b"")
    (folder / "blob.bin").write_bytes(bytes(range(256)) * 40)
    # Not UTF-8, nor UTF-16, nor text in cp1252 (0x81 ... are undefined there): in latin-1
    # these are all C1 control characters.
    (folder / "no-encoding.txt").write_bytes(bytes([0x81, 0x8D, 0x8F, 0x90, 0x9D]) * 400)
    (folder / "rules.txt").mkdir()  # a folder named like a file, with nothing in it
    (folder / "loop.txt").symlink_to("loop.txt")
    (folder / "sub").mkdir()
    (folder / "sub" / "up").symlink_to("..")  # a loop through folders
    (folder / "broken.txt").symlink_to("missing.txt")
    whole = gzip.compress(b"some text " * 500)
    (folder / "cut.txt.gz").write_bytes(whole[: len(whole) // 2])
    (folder / "corrupt.txt.gz").write_bytes(whole[:10] + b"\xff" * 64 + whole[74:])
    os.mkfifo(folder / "pipe.txt")  # reading it would block forever
    (folder / os.fsdecode(b"bad-\xff-name.txt")).write_bytes(b"a name that is not UTF-8")
    return folder


def test_each_bad_file_is_named_with_its_reason_and_the_rest_builds(tmp_path):
    result = kb_build(tmp_path, bad_folder(tmp_path))
    assert result.exit_code == 0, result.stderr
    assert "Traceback" not in result.output
    assert problems(result.stderr) == {
        "empty.txt": "empty file",
        "blob.bin": "binary content, not text",
        "no-encoding.txt": "binary content, not text",
        "rules.txt": "folder holds no document",
        "loop.txt": "too many levels of symbolic links",
        "up": f"symbolic link loop: links back to {(tmp_path / 'corpus').resolve()}, "
              "not followed",
        "broken.txt": "no such file or directory",
        "cut.txt.gz": "not a readable gzip file (compressed file ended before the "
                      "end-of-stream marker was reached)",
        "corrupt.txt.gz": "not a readable gzip file (error -3 while decompressing data: "
                          "invalid block type)",
        "pipe.txt": "not a regular file (a named pipe, socket or device)",
        "bad-\ufffd-name.txt": "name is not valid UTF-8: rename it to read it",
    }
    assert f"{GOOD}  keyword_page" in result.stdout
    with KnowledgeBase(tmp_path / "idx") as kb:
        echo = sorted(r["language"] for r in kb.export(kind="rule") if r["number"] == "702.27a")
    assert echo == ["en", "fr"]  # the page quotes 702.27a in French, then in English


def test_strict_exits_1_and_still_builds(tmp_path):
    result = kb_build(tmp_path, bad_folder(tmp_path), "--strict")
    assert result.exit_code == 1
    assert result.stderr.splitlines()[-1] == "kb: 11 problems in the corpus (--strict)"
    assert "Traceback" not in result.output
    KnowledgeBase(tmp_path / "idx").close()  # published all the same


def test_strict_with_a_clean_corpus_exits_0(tmp_path):
    assert kb_build(tmp_path, corpus(tmp_path), "--strict").exit_code == 0


def test_json_lists_the_problems(tmp_path):
    folder = corpus(tmp_path)
    (folder / "empty.txt").write_bytes(b"")
    result = kb_build(tmp_path, folder, "--json", "--strict")
    assert result.exit_code == 1
    report = json.loads(result.stdout)
    assert report["problems"] == [{"file": "empty.txt", "reason": "empty file"}]


def test_an_empty_corpus_folder_is_reported(tmp_path):
    (tmp_path / "nothing").mkdir()
    result = kb_build(tmp_path, tmp_path / "nothing")
    assert result.exit_code == 0
    assert problems(result.stderr) == {"nothing": "folder holds no document"}


def test_a_link_out_of_the_corpus_folder_is_followed_only_when_asked(tmp_path):
    folder = tmp_path / "outer"
    folder.mkdir()
    good = corpus(tmp_path)
    (folder / "linked").symlink_to(good, target_is_directory=True)
    report = build(tmp_path / "idx", [folder])
    assert report.sources == []
    assert [(p.file, p.reason) for p in report.problems] == [
        (str(folder / "linked"), f"link to {good.resolve()}, outside the corpus folder: not "
                                  "followed (kb build --follow-links follows it)")]
    report = build(tmp_path / "idx", [folder], follow_links=True)
    assert [s.file for s in report.sources] == [f"linked/{GOOD}"]
    assert report.problems == []


def test_a_link_inside_the_corpus_folder_is_followed(tmp_path):
    folder = corpus(tmp_path)
    (folder / "again").mkdir()
    (folder / "again" / "echo.txt").symlink_to(folder / GOOD)
    report = build(tmp_path / "idx", [folder])
    assert sorted(s.file for s in report.sources) == [GOOD]  # one document, read once
    assert report.problems == []  # the same bytes twice are no problem, only reported
    assert [(p.file, p.reason) for p in report.copies] == [
        ("again/echo.txt", f"identical to {GOOD}; read once")]


@pytest.mark.parametrize("target", ["/etc/passwd", "/etc/shadow", "/etc/hostname"])
def test_a_link_to_a_system_file_is_not_read(tmp_path, target):
    folder = corpus(tmp_path)
    (folder / "secret.txt").symlink_to(target)
    result = kb_build(tmp_path, folder)
    assert result.exit_code == 0
    resolved = Path(target).resolve()
    assert problems(result.stderr) == {"secret.txt": f"link to {resolved}, outside the corpus "
                                       "folder: not followed (kb build --follow-links follows it)"}
    with KnowledgeBase(tmp_path / "idx") as kb:
        assert "secret.txt" not in {r["source"]["file"] for r in kb.export()}


@pytest.mark.parametrize("target", ["/proc/kmsg", "/proc/self", "/proc/self/status",
                                    "/dev/zero", "/sys/kernel"])
def test_special_files_are_never_read_even_with_follow_links(tmp_path, target):
    """/proc/kmsg blocks a reader forever; /proc/self leads to the whole file system."""
    if not Path(target).exists():
        pytest.skip(f"{target} does not exist here")
    folder = corpus(tmp_path)
    (folder / "special").symlink_to(target)
    started = time.perf_counter()
    result = kb_build(tmp_path, folder, "--follow-links")
    assert time.perf_counter() - started < 60
    assert result.exit_code == 0, result.output
    reason = problems(result.stderr)["special"]
    assert reason.startswith("a special file of the system (/") and reason.endswith("never read")
    assert f"{GOOD}  keyword_page" in result.stdout


def test_a_system_folder_named_as_corpus_is_not_walked(tmp_path):
    report = build(tmp_path / "idx", [Path("/proc")])
    assert [(p.file, p.reason) for p in report.problems] == [
        ("/proc", "a folder of the system's special files: never read")]


def test_a_folder_1100_levels_deep_is_walked(tmp_path):
    folder = corpus(tmp_path)
    deep = folder
    for _ in range(1100):  # os.makedirs recurses: one level at a time
        deep = deep / "d"
        deep.mkdir()
    (deep / "deep.txt").write_text("Un document tout au fond.\n")
    try:
        report = build(tmp_path / "idx", [folder])
    finally:  # pytest's clean-up (shutil.rmtree) recurses too: remove the levels bottom up
        (deep / "deep.txt").unlink()
        while deep != folder:
            deep.rmdir()
            deep = deep.parent
    assert report.problems == []
    assert sorted(s.file for s in report.sources) == [GOOD, "d/" * 1100 + "deep.txt"]


def test_a_gzip_bomb_is_refused_at_the_size_cap(tmp_path, monkeypatch):
    import kb.corpus

    monkeypatch.setattr(kb.corpus, "MAX_DOCUMENT_BYTES", 4 << 20)
    folder = corpus(tmp_path)
    (folder / "bomb.txt.gz").write_bytes(gzip.compress(b"a" * (64 << 20), compresslevel=1))
    (folder / "big.txt").write_bytes(b"b " * (3 << 20))  # 6 MB, plain
    report = build(tmp_path / "idx", [folder])
    assert {p.file: p.reason for p in report.problems} == {
        "bomb.txt.gz": f"larger than {4 << 20:,} bytes decompressed: not read",
        "big.txt": f"larger than {4 << 20:,} bytes: not read"}
    assert [s.file for s in report.sources] == [GOOD]


def test_an_index_folder_inside_a_corpus_folder_is_not_read_back(tmp_path):
    folder = corpus(tmp_path)
    build(folder / "idx", [folder])  # the index written inside the corpus folder
    report = build(folder / "idx", [folder])
    assert [s.file for s in report.sources] == [GOOD]
    assert [(p.file, p.reason) for p in report.problems] == [
        (str(folder / "idx"), "a kb index folder, not documents: skipped (keep the index "
                              "outside the corpus folder)")]


def test_an_unreadable_file_is_named(tmp_path):
    folder = corpus(tmp_path)
    secret = folder / "secret.txt"
    secret.write_text("Texte.")
    secret.chmod(0)
    try:
        if os.access(secret, os.R_OK):
            pytest.skip("running as root: chmod 000 does not stop root from reading")
        result = kb_build(tmp_path, folder)
    finally:
        secret.chmod(0o644)
    assert result.exit_code == 0
    assert problems(result.stderr) == {"secret.txt": "permission denied"}


def test_a_link_to_proc_self_mem_is_not_read(tmp_path):
    """/proc/self/mem fails with EIO at offset 0: as every file of /proc, it is never read."""
    if not Path("/proc/self/mem").exists():
        pytest.skip("needs Linux /proc/self/mem")
    folder = corpus(tmp_path)
    (folder / "mem.txt").symlink_to("/proc/self/mem")
    result = kb_build(tmp_path, folder, "--follow-links")
    assert result.exit_code == 0
    (reason,) = problems(result.stderr).values()
    assert reason.startswith("a special file of the system (/proc/")


def test_a_huge_single_line_file_is_read_in_bounded_time(tmp_path):
    folder = corpus(tmp_path)
    line = ("702.19b Trample « piétinement » " * 200_000)[:5_000_000]  # 5 MB, no newline
    (folder / "huge.txt").write_text(line, encoding="utf-8")
    started = time.perf_counter()
    report = build(tmp_path / "idx", [folder])
    assert time.perf_counter() - started < 60
    huge = next(s for s in report.sources if s.file == "huge.txt")
    assert huge.format == "unknown" and huge.counts == {"fragment": 1}
    with KnowledgeBase(tmp_path / "idx") as kb:
        (fragment,) = [r for r in kb.export(kind="fragment") if r["source"]["file"] == "huge.txt"]
    assert fragment["text"] == line


def test_a_stray_byte_in_utf8_is_reported_and_the_text_kept(tmp_path):
    """One invalid byte in a UTF-8 document: the build names the file and the count, and
    the rest of the document is read as UTF-8."""
    from kb.build import build

    corpus = tmp_path / "c"
    corpus.mkdir()
    text = ("# Notes\n\n* Le piétinement s'applique à la créature bloquée, même après "
            "l'étape des blessures ; la créature éliminée reste désignée.\n").encode()
    (corpus / "notes.md").write_bytes(text[:20] + b"\xff" + text[20:])
    report = build(tmp_path / "idx", [corpus])
    assert [(p.file, p.reason) for p in report.problems] == [
        ("notes.md", "1 byte sequence(s) not valid utf-8, read as U+FFFD")]


# -- issue 17: text in other encodings, garbage, fragments; issue 16: misread rules files ------

# Seed 001 line 88 (the French Dragon's Maze FAQ).
FRENCH = ("La dernière capacité de l'Ætherlin peut être activée même si sa force est de 0 ou "
          "moins. Si une créature devait infliger 0 blessure ou moins au combat, elle "
          "n'attribue aucune blessure de combat.\n")
# A small rules file in the layout of the official text (2026-04-17, rule 702.19b abridged).
CR = ("Magic: The Gathering Comprehensive Rules\n\nThese rules are effective as of April 17, "
      "2026.\n\nContents\n\n7. Additional Rules\nGlossary\nCredits\n\n7. Additional Rules\n\n"
      "702. Keyword Abilities\n\n702.19. Trample\n\n702.19b The controller of an attacking "
      "creature with trample first assigns damage to the creature(s) blocking it.\n\n"
      "Glossary\n\nTrample\nA keyword ability that modifies how a creature assigns combat "
      "damage. See rule 702.19, “Trample.”\n\nCredits\n\nRichard Garfield\n")


def exported(tmp_path: Path, file: str) -> list[dict]:
    with KnowledgeBase(tmp_path / "idx") as kb:
        return [r for r in kb.export() if r["source"]["file"] == file]


@pytest.mark.parametrize(("codec", "newline"), [("mac_roman", "\n"), ("cp437", "\r\n"),
                                                ("cp1252", "\r\n")])
def test_french_in_an_8_bit_code_page_is_read_as_written(tmp_path, codec, newline):
    folder = corpus(tmp_path)
    (folder / "notes.txt").write_bytes((FRENCH * 3).replace("\n", newline).encode(codec))
    report = build(tmp_path / "idx", [folder])
    assert report.problems == []
    (fragment,) = exported(tmp_path, "notes.txt")
    assert fragment["text"] == FRENCH * 3


@pytest.mark.parametrize("codec", ["cp949", "euc_kr"])
def test_korean_is_read_as_korean(tmp_path, codec):
    korean = "702.19b 짓밟기를 가진 공격하는 생물의 조종자는 치명적인 피해를 먼저 배정한다.\n" * 3
    folder = corpus(tmp_path)
    (folder / "ko.txt").write_bytes(korean.encode(codec))
    report = build(tmp_path / "idx", [folder])
    assert report.problems == []
    assert exported(tmp_path, "ko.txt")[0]["text"] == korean


def test_a_file_that_reads_as_mojibake_is_reported(tmp_path):
    folder = corpus(tmp_path)
    (folder / "double.txt").write_bytes(
        (FRENCH * 3).encode("utf-8").decode("cp1252").encode("utf-8"))
    report = build(tmp_path / "idx", [folder])
    (problem,) = report.problems
    assert problem.file == "double.txt"
    assert problem.reason.startswith("the text looks wrong in utf-8 (")


def test_an_english_rules_file_encoded_twice_is_reported(tmp_path):
    """Issue 25, case 7: the English CR with "â€™" for each "’" was built without a word."""
    folder = corpus(tmp_path)
    english = (embedded_corpus() / "MagicCompRules 20260417.txt").read_text(encoding="utf-8")
    (folder / "cr.txt").write_bytes(
        english.encode("utf-8").decode("cp1252", errors="replace").encode("utf-8"))
    report = build(tmp_path / "idx", [folder])
    reasons = [p.reason for p in report.problems if p.file == "cr.txt"]
    assert any("read as cp1252 and saved again" in r for r in reasons), report.problems


@pytest.mark.parametrize("garbage", [2_000, 300_000])
def test_a_rules_file_followed_by_garbage_keeps_its_rules_and_reports_the_rest(tmp_path,
                                                                              garbage):
    import random

    folder = corpus(tmp_path)
    (folder / "cr.txt").write_bytes(CR.encode("utf-8") + random.Random(1).randbytes(garbage))
    result = kb_build(tmp_path, folder, "--strict")
    assert result.exit_code == 1
    lines = CR.count("\n") + 1
    reason = problems(result.stderr)["cr.txt"]
    assert reason.endswith(f"bytes of binary data after line {lines}: not read")
    assert int(reason.split()[0].replace(",", "")) >= garbage - 1
    records = exported(tmp_path, "cr.txt")
    rule = next(r for r in records if r.get("number") == "702.19b")
    assert rule["text"].startswith("The controller of an attacking creature with trample")
    credits = next(r for r in records if r["kind"] == "passage" and r["role"] == "credits")
    assert credits["text"] == "Credits\n\nRichard Garfield"


def test_a_word_only_in_an_unparsed_fragment_is_reported_as_not_searchable(tmp_path):
    folder = corpus(tmp_path)
    (folder / "odd.txt").write_text("Zyxwvut is a word found nowhere else.\n")
    result = kb_build(tmp_path, folder)
    assert result.exit_code == 0
    assert "Not yet understood (kept whole as unparsed): odd.txt" in result.stdout
    assert "Unparsed fragments: 1, not searchable (list them: kb export --kind fragment)" \
        in result.stdout
    search = CliRunner().invoke(cli, ["--index", str(tmp_path / "idx"), "search", "zyxwvut"])
    assert search.exit_code == 1  # not found: what the build said


def test_two_rules_files_of_the_same_date_with_different_text_are_named(tmp_path):
    folder = corpus(tmp_path)
    (folder / "a.txt").write_text(CR)
    (folder / "b.txt").write_text(CR.replace("Richard Garfield", "Richard Garfield, Ph.D."))
    (folder / "c.txt").write_text(CR)  # the same bytes as a.txt
    report = build(tmp_path / "idx", [folder])
    assert {p.file: p.reason for p in report.problems} == {
        "b.txt": "different text with the same identity as a.txt (cr:en:2026-04-17: a second "
                 "version of that date?); skipped, a.txt is kept"}
    assert [(p.file, p.reason) for p in report.copies] == [
        ("c.txt", "identical to a.txt; read once")]


def test_a_rules_file_whose_rules_are_not_read_fails_a_strict_build(tmp_path):
    folder = corpus(tmp_path)
    broken = CR.replace("702.19b The", "702.19b.the").replace("702.19. Trample", "702.19.Trample")
    broken += "".join(f"\n702.19{c}.the rule {c}.\n" for c in "cdefgh")
    (folder / "cr.txt").write_text(broken)
    result = kb_build(tmp_path, folder, "--strict")
    assert result.exit_code == 1
    # 702.19 still reads ("702.19.Trample": a capital after the number), the 7 others not.
    assert problems(result.stderr)["cr.txt"].startswith("only 1 rules read from 8 numbered lines")
