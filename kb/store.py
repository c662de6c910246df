"""The record store: one SQLite file per build. The only module that speaks SQL.

A store is written once by a build and then only read. Rows keep the columns that queries
filter on (kind, number, language, version) and the record as JSON, so a new record kind needs
no schema change. The schema version is stamped in ``meta``; a store of another version is
never read (:class:`StaleStoreError`) and the next build starts afresh.

A record's JSON is split in two: what only this record has (its id, version and place: the
columns ``id``, ``version``, ``file``, ``line``; ``file`` is NULL when it is the source's) and
its *body*, everything else, kept once in
``bodies`` however many records share it. A hundred rules versions repeat most rules word for
word (223,000 rule records, 11,700 distinct texts), so the store grows with what changed.
Bodies are keyed by a 63-bit hash of their JSON.

Every record's CRC-32 (of its body and its own parts) is checked each time a record is read:
bytes altered on disk, or two bodies sharing a hash, are reported (:class:`CorruptStoreError`),
never served as rule text, for a cost too small to measure. SQLite's own errors on a damaged
file are reported the same way.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import zlib
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from urllib.parse import quote

import msgspec

from kb.codec import from_dict, to_dict
from kb.errors import DamagedIndexError
from kb.i18n import _
from kb.model import (
    TERM_EVIDENCE,
    Card,
    Citation,
    Example,
    GlossaryEntry,
    Link,
    Record,
    Source,
    TermPair,
    TocEntry,
    kind_of,
)
from kb.rulenum import RuleNumber, RuleRange

SCHEMA_VERSION = 10  # 10: a folded French "-ée" is stemmed as "-e" (kb.index.analysis)

_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE sources (
    id TEXT PRIMARY KEY, file TEXT NOT NULL, path TEXT NOT NULL, sha256 TEXT NOT NULL,
    format TEXT NOT NULL, language TEXT, version TEXT, encoding TEXT NOT NULL,
    newline TEXT NOT NULL, title TEXT
);
CREATE TABLE records (
    id TEXT PRIMARY KEY, source_id TEXT NOT NULL REFERENCES sources(id), seq INTEGER NOT NULL,
    kind TEXT NOT NULL, number TEXT, sort_key TEXT, language TEXT, version TEXT,
    title TEXT, file TEXT, line INTEGER NOT NULL,
    body INTEGER NOT NULL, crc INTEGER NOT NULL
);
CREATE TABLE bodies (hash INTEGER PRIMARY KEY, data TEXT NOT NULL);
CREATE INDEX records_source ON records(source_id, seq);
CREATE TABLE citations (
    body INTEGER NOT NULL REFERENCES bodies(hash), written TEXT NOT NULL,
    first TEXT NOT NULL, last TEXT NOT NULL, first_rule INTEGER, last_rule INTEGER
);
CREATE TABLE links (
    from_id TEXT NOT NULL, to_id TEXT NOT NULL, relation TEXT NOT NULL,
    confidence REAL NOT NULL, evidence TEXT NOT NULL, basis TEXT NOT NULL
);
CREATE TABLE terms (
    french TEXT NOT NULL, english TEXT NOT NULL, kind TEXT NOT NULL, count INTEGER NOT NULL,
    evidence TEXT NOT NULL, french_key TEXT NOT NULL, english_key TEXT NOT NULL
);
CREATE INDEX terms_french ON terms(french_key);
CREATE INDEX terms_english ON terms(english_key);
"""
# Indexes made once their table is filled (:meth:`Store.index_records`, :meth:`replace_links`):
# an index built at once is packed and sorted, one kept up row by row is neither (and slower).
_RECORD_INDEXES = """
CREATE INDEX IF NOT EXISTS records_number ON records(number, version, language);
CREATE INDEX IF NOT EXISTS records_kind ON records(kind, version);
CREATE INDEX IF NOT EXISTS records_body ON records(body);
CREATE INDEX IF NOT EXISTS citations_rules ON citations(first_rule, last_rule);
CREATE INDEX IF NOT EXISTS citations_spans ON citations(last_rule - first_rule, first_rule);
"""
_LINK_INDEXES = """
CREATE INDEX IF NOT EXISTS links_from ON links(from_id, relation);
CREATE INDEX IF NOT EXISTS links_to ON links(to_id, relation);
"""


class StaleStoreError(RuntimeError):
    """The store was written by another schema version and must be rebuilt."""


class OtherSchemaError(StaleStoreError):
    """The store is a kb store of another schema version (an older or newer kb wrote it)."""


class CorruptStoreError(DamagedIndexError):
    """The store file is damaged: a record fails its checksum, or SQLite cannot read it."""

    def __init__(self, path: Path, what: str) -> None:
        from kb.indexdir import damaged

        super().__init__(damaged(_("{path}: {what}").format(path=path, what=what)))


def read_only(path: Path) -> str:
    """The URI that opens a published store for reading: read-only and immutable, so SQLite
    neither locks it nor looks for a journal or WAL beside it (a stray one, which it would
    try to roll back and cannot in a read-only generation, is ignored: the generation's
    checksums, not a journal, say whether the file is whole)."""
    return f"file:{quote(str(path.absolute()))}?mode=ro&immutable=1"


def _crc(body: str, record_id: str, version: str | None, file: str, line: int) -> int:
    return zlib.crc32(f"{body}\x00{record_id}\x00{version or ''}\x00{file}\x00{line}"
                      .encode())


def body_hash(body: str) -> int:
    """The key of a body: 63 bits of its BLAKE2 digest (a signed SQLite integer)."""
    return int.from_bytes(hashlib.blake2b(body.encode("utf-8"), digest_size=8).digest(),
                          "big") >> 1


def split_record(record: Record) -> tuple[str, str | None]:
    """A record's body (its JSON without its id, version and place, and without the
    citations' record id, which is its own) and its version."""
    data = to_dict(record)
    record_id = data.pop("id")
    del data["loc"]  # the columns file and line
    version = data.pop("version") if data.get("version") is not None else None
    for citation in data.get("citations", ()):
        if citation.get("record_id") == record_id:
            del citation["record_id"]
    return json.dumps(data, ensure_ascii=False), version


def join_record(kind: str, body: str, record_id: str, version: str | None, file: str,
                line: int) -> Record:
    """The record that :func:`split_record` split (its body parsed by msgspec's decoder, a
    third of :func:`json.loads`'s time: every answer shown reads a record)."""
    data = msgspec.json.decode(body)
    data["id"], data["loc"] = record_id, {"file": file, "line": line}
    if version is not None:
        data["version"] = version
    for citation in data.get("citations", ()):
        citation.setdefault("record_id", record_id)
    return from_dict(kind, data)


def sort_key_text(number: str | None) -> str | None:
    """A string whose lexical order is the rule-number order (for SQL ORDER BY)."""
    if number is None:
        return None
    parsed = RuleNumber.try_parse(number)
    if parsed is None:
        return None
    section, rule, sub, width, letter = parsed.sort_key
    return f"{section}{rule + 1:04d}{sub + 1:04d}{width}{letter:<2}"


def record_number(record: Record) -> str | None:
    if isinstance(record, Example):
        return record.rule
    return getattr(record, "number", None)


def record_text(record: Record) -> str:
    if isinstance(record, GlossaryEntry):
        return record.definition
    if isinstance(record, TocEntry):
        return record.title
    if isinstance(record, Card):
        return "\n".join(filter(None, [record.name, *(f.text or "" for f in record.faces)]))
    return record.text


def record_title(record: Record) -> str | None:
    if isinstance(record, GlossaryEntry):
        return record.term
    if isinstance(record, Card):
        return record.name
    return getattr(record, "title", None)


class Store:
    """Read and write access to one store file."""

    def __init__(self, path: Path, conn: sqlite3.Connection) -> None:
        self.path = path
        self.conn = conn

    # -- opening ---------------------------------------------------------------------------

    @classmethod
    def create(cls, path: Path) -> Store:
        # A URI connection, so that ATTACH reads the previous store by its URI too.
        where = ":memory:" if str(path) == ":memory:" else quote(str(path.absolute()))
        conn = sqlite3.connect(f"file:{where}", uri=True)
        conn.executescript(_SCHEMA)
        conn.execute("INSERT INTO meta VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))
        return cls(path, conn)

    @classmethod
    def open(cls, path: Path) -> Store:
        """Open read-only; raise :class:`StaleStoreError` for another schema version."""
        conn = sqlite3.connect(read_only(path), uri=True)
        try:
            row = conn.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
        except sqlite3.DatabaseError as exc:
            conn.close()
            raise StaleStoreError(_("{path}: not a kb store ({problem})").format(
                path=path, problem=exc)) from exc
        if row is None or row[0] != str(SCHEMA_VERSION):
            conn.close()
            found = row[0] if row else "none"
            raise OtherSchemaError(_("{path}: schema version {found}, this kb reads {reads}")
                                   .format(path=path, found=found, reads=SCHEMA_VERSION))
        return cls(path, conn)

    def close(self) -> None:
        self.conn.close()

    # -- writing ---------------------------------------------------------------------------

    def set_meta(self, key: str, value: str) -> None:
        self.conn.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, value))

    def add_source(self, source: Source, records: Iterable[Record]) -> int:
        """Store a source and its records; return how many records were left out because a
        record of the same id is already stored (the same card in two MTGJSON files)."""
        self.conn.execute(
            "INSERT INTO sources VALUES (:id, :file, :path, :sha256, :format, :language,"
            " :version, :encoding, :newline, :title)",
            to_dict(source),
        )
        records = list(records)
        stored = self._existing_ids([r.id for r in records])
        fresh = [r for r in records if r.id not in stored]
        rows, cites, bodies = [], [], {}
        for seq, record in enumerate(fresh):
            number = record_number(record)
            body, version = split_record(record)
            key = body_hash(body)
            if key not in bodies:
                bodies[key] = body
                cites.extend(_citation_row(key, c) for c in getattr(record, "citations", ()))
            rows.append(
                (
                    record.id, source.id, seq, kind_of(record), number, sort_key_text(number),
                    getattr(record, "language", None), version, record_title(record),
                    None if record.loc.file == source.file else record.loc.file,
                    record.loc.line, key,
                    _crc(body, record.id, version, record.loc.file, record.loc.line),
                )
            )
        stored_bodies = self._existing_bodies(list(bodies))
        self.conn.executemany("INSERT INTO bodies VALUES (?,?)",
                              [item for item in bodies.items() if item[0] not in stored_bodies])
        self.conn.executemany("INSERT INTO records VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)", rows)
        self.conn.executemany("INSERT INTO citations VALUES (?,?,?,?,?,?)",
                              [c for c in cites if c[0] not in stored_bodies])
        return len(records) - len(fresh)

    def _existing_ids(self, ids: list[str]) -> set[str]:
        return self._existing("SELECT id FROM records WHERE id IN", ids)

    def _existing_bodies(self, keys: list[int]) -> set[int]:
        return self._existing("SELECT hash FROM bodies WHERE hash IN", keys)

    def _existing(self, select: str, keys: list) -> set:
        found: set = set()
        for start in range(0, len(keys), 500):
            chunk = keys[start:start + 500]
            marks = ",".join("?" * len(chunk))
            found.update(row[0] for row in self.conn.execute(f"{select} ({marks})", chunk))
        return found

    def attach(self, other: Path) -> None:
        """Open another store (the previous build's) to copy sources from, until :meth:`detach`."""
        self.conn.execute("ATTACH DATABASE ? AS old", (read_only(other),))

    def detach(self) -> None:
        self.conn.commit()
        self.conn.execute("DETACH DATABASE old")

    def copy_source_from(self, source_id: str) -> None:
        """Copy a source and its records unchanged from the attached store (incremental
        build). The copies of a build are one transaction: a hundred sources in seconds."""
        self.conn.execute("INSERT INTO sources SELECT * FROM old.sources WHERE id=?",
                          (source_id,))
        # A body's citations come with it, once: the bodies this store has hold theirs.
        self.conn.execute(
            "INSERT INTO citations SELECT * FROM old.citations WHERE body IN"
            " (SELECT body FROM old.records WHERE source_id=?)"
            " AND body NOT IN (SELECT hash FROM main.bodies)", (source_id,))
        # A record already stored under another source (same id) is kept once.
        self.conn.execute(
            "INSERT OR IGNORE INTO records SELECT * FROM old.records WHERE source_id=?",
            (source_id,),
        )
        self.conn.execute(
            "INSERT OR IGNORE INTO bodies SELECT * FROM old.bodies WHERE hash IN"
            " (SELECT body FROM old.records WHERE source_id=?)", (source_id,))

    def commit(self) -> None:
        self.conn.commit()

    def index_records(self) -> None:
        """Index the records and citations by number, kind and cited rule, once every source
        is stored (the build's link stage and every reader need them)."""
        self.conn.executescript(_RECORD_INDEXES)

    def compact(self) -> None:
        """Rewrite the committed file with full pages: indexes filled in random key order
        leave a tenth of a large store empty (0.4 s for a hundred rules versions, 150 MB)."""
        self.conn.execute("VACUUM")

    def replace_links(self, links: Iterable[Link]) -> int:
        """Replace every link: links are derived from all records, so each build redoes them."""
        self.conn.execute("DELETE FROM links")
        self.conn.execute("DROP INDEX IF EXISTS links_from")
        self.conn.execute("DROP INDEX IF EXISTS links_to")
        rows = [(k.from_id, k.to_id, k.relation, k.confidence, k.evidence, k.basis)
                for k in links]
        self.conn.executemany("INSERT INTO links VALUES (?,?,?,?,?,?)", rows)
        self.conn.executescript(_LINK_INDEXES)
        return len(rows)

    def replace_terms(self, terms: Iterable[TermPair], key: Callable[[str], str]) -> int:
        """Replace the term table; ``key`` makes the lookup key of a term (folded)."""
        self.conn.execute("DELETE FROM terms")
        rows = [(t.french, t.english, t.kind, t.count, json.dumps(t.evidence, ensure_ascii=False),
                 key(t.french), key(t.english)) for t in terms]
        self.conn.executemany("INSERT INTO terms VALUES (?,?,?,?,?,?,?)", rows)
        return len(rows)

    def terms(self, key: str | None = None, *, prefix: bool = False) -> list[TermPair]:
        """Term pairs whose French or English key is ``key`` (or starts with it); all without
        a key. The official vocabulary first, then card keyword lines and the rules' titles,
        then what parallel texts and card names suggest; most attested first within each (the
        official "cimetière" before the 232 parallel texts' "cimetière")."""
        sql = "SELECT french, english, kind, count, evidence FROM terms"
        args: tuple[str, ...] = ()
        if key is not None:
            if prefix:
                sql += " WHERE french_key GLOB ? OR english_key GLOB ?"
                args = (_glob_prefix(key),) * 2
            else:
                sql += " WHERE french_key = ? OR english_key = ?"
                args = (key, key)
        cur = self.conn.execute(sql + _TERMS_ORDER, args)
        return [TermPair(f, e, k, c, tuple(json.loads(ev))) for f, e, k, c, ev in cur]

    def links(self, *, from_id: str | None = None, to_id: str | None = None,
              relation: str | None = None) -> list[Link]:
        clauses, args = [], []
        for column, value in (("from_id", from_id), ("to_id", to_id), ("relation", relation)):
            if value is not None:
                clauses.append(f"{column} = ?")
                args.append(value)
        where = f" WHERE {' AND '.join(clauses)}" if clauses else ""
        cur = self.conn.execute(
            f"SELECT from_id, to_id, relation, confidence, evidence, basis FROM links{where}"
            " ORDER BY relation, from_id, to_id", args)
        return [Link(*row) for row in cur]

    def linked(self, starts: Iterable[str], relation: str) -> dict[str, set[str]]:
        """Each of ``starts`` with the records ``relation`` links reach from it, both ways
        and step after step: the records the link stage decided are one card
        (``same-card``) or one ruling (``same-ruling``). One recursive query for every start:
        a search's hundred candidate rulings took three hundred lookups, one per record and
        direction."""
        rows = self.conn.execute(
            "WITH RECURSIVE grp(start, id) AS ("
            " SELECT value, value FROM json_each(?1)"
            " UNION SELECT grp.start, l.to_id FROM links l JOIN grp ON l.from_id = grp.id"
            " WHERE l.relation = ?2"
            " UNION SELECT grp.start, l.from_id FROM links l JOIN grp ON l.to_id = grp.id"
            " WHERE l.relation = ?2)"
            " SELECT start, id FROM grp", (json.dumps(list(starts)), relation))
        groups: dict[str, set[str]] = {}
        for start, member in rows:
            groups.setdefault(start, set()).add(member)
        return groups

    def chain(self, start: str, relation: str, forward: bool = True) -> list[str]:
        """The ids reached from ``start`` along ``relation`` links one after another (forward:
        from ``from_id`` to ``to_id``), nearest first, in one query: a rule followed through
        a hundred versions is one recursive lookup, not a hundred."""
        here, there = ("from_id", "to_id") if forward else ("to_id", "from_id")
        rows = self.conn.execute(
            f"WITH RECURSIVE step(id, n) AS (SELECT ?, 0 UNION ALL SELECT l.{there}, step.n + 1"
            f" FROM links l JOIN step ON l.{here} = step.id WHERE l.relation = ?)"
            " SELECT id FROM step WHERE n > 0 ORDER BY n", (start, relation))
        return [row[0] for row in rows]

    # -- reading ---------------------------------------------------------------------------

    def meta(self, key: str) -> str | None:
        row = self.conn.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
        return row[0] if row else None

    def sources(self) -> list[Source]:
        cur = self.conn.execute(
            "SELECT id, file, path, sha256, format, language, version, encoding, newline, title"
            " FROM sources ORDER BY version, id"
        )
        return [Source(*row) for row in cur]

    def source_by_sha(self) -> dict[str, Source]:
        return {s.sha256: s for s in self.sources()}

    def count_by_kind(self, source_id: str | None = None) -> dict[str, int]:
        sql = "SELECT kind, COUNT(*) FROM records"
        args: tuple[str, ...] = ()
        if source_id is not None:
            sql += " WHERE source_id=?"
            args = (source_id,)
        return dict(self.conn.execute(sql + " GROUP BY kind", args).fetchall())

    def census(self, source_id: str) -> dict[tuple[str, str | None, bool], int]:
        """How many records a source has of each (kind, language, whether it has a
        version)."""
        rows = self.conn.execute(
            "SELECT kind, language, COALESCE(version, '') != '', COUNT(*) FROM records"
            " WHERE source_id=? GROUP BY 1, 2, 3", (source_id,))
        return {(kind, language, bool(dated)): n for kind, language, dated, n in rows}

    def count_flags(self, source_id: str) -> dict[str, int]:
        """How many of a source's records have a number inferred, or are left untranslated."""
        row = self.conn.execute(
            "SELECT COALESCE(SUM(json_extract(b.data, '$.inferred')), 0),"
            " COALESCE(SUM(json_extract(b.data, '$.untranslated')), 0)"
            " FROM records r JOIN bodies b ON b.hash = r.body WHERE r.source_id=?",
            (source_id,),
        ).fetchone()
        return {"inferred": row[0], "untranslated": row[1]}

    def query(
        self,
        *,
        kind: str | None = None,
        number: str | None = None,
        under: str | None = None,
        language: str | None = None,
        version: str | None = None,
        source_id: str | None = None,
    ) -> Iterator[Record]:
        """Records matching every given filter, in rule-number then reading order.

        ``under`` selects a rule number and all its descendants (``702.19`` -> 702.19a ...).
        """
        clauses, args = [], []
        # A rule and its descendants are a range of the number index; the other columns are
        # then only filters ("+column": a source's 4,000 records are not its best index).
        steer = "+" if under is not None else ""
        for column, value in (
            ("kind", kind), ("number", number), ("language", language),
            ("version", version), ("source_id", source_id),
        ):
            if value is not None:
                clauses.append(f"{steer}{column} = ?")
                args.append(value)
        if under is not None:
            clauses.append("number >= ? AND number < ? AND (number = ? OR number GLOB ?"
                           " OR number GLOB ?)")
            args += [under, under + "\uffff", under,
                     *_descendant_globs(RuleNumber.parse(under))]
        where = f" WHERE {' AND '.join(clauses)}" if clauses else ""
        cur = self._rows(f"{_RECORD}{where} ORDER BY sort_key, source_id, seq", args)
        for row in cur:
            yield self._record(*row)

    def get(self, record_id: str) -> Record | None:
        rows = self._rows(f"{_RECORD} WHERE id=?", (record_id,))
        row = next(rows, None)
        return self._record(*row) if row else None

    def in_reading_order(self) -> Iterator[tuple[str, Record]]:
        """Every record with its source id, source by source in reading order."""
        for source_id, *row in self._rows(
                f"SELECT source_id, {_RECORD.removeprefix('SELECT ')} ORDER BY source_id, seq"):
            yield source_id, self._record(*row)

    def damaged(self) -> int:
        """How many records fail their checksum (``kb doctor``)."""
        rows = self._rows(f"SELECT b.data, r.id, r.version, {_FILE}, r.line, r.crc"
                          " FROM records r LEFT JOIN bodies b ON b.hash = r.body")
        return sum(1 for body, *own, crc in rows
                   if body is None or _crc(body, *own) != crc)

    def _rows(self, sql: str, args: Iterable[object] = ()) -> Iterator[tuple]:
        """Rows of a query; SQLite's errors on a damaged file become :class:`CorruptStoreError`."""
        try:
            cur = self.conn.execute(sql, tuple(args))
            while (row := cur.fetchone()) is not None:
                yield row
        except sqlite3.DatabaseError as exc:
            raise CorruptStoreError(self.path, _("SQLite: {problem}").format(problem=exc)) from exc

    def _record(self, kind_name: str, body: str | None, record_id: str, version: str | None,
                file: str, line: int, crc: int) -> Record:
        """A stored record, after checking that its parts are the ones written."""
        if body is None or _crc(body, record_id, version, file, line) != crc:
            raise CorruptStoreError(self.path, _("a record fails its checksum"))
        try:
            return join_record(kind_name, body, record_id, version, file, line)
        except (ValueError, KeyError, TypeError) as exc:
            raise CorruptStoreError(self.path, _("a record cannot be read ({problem})").format(
                problem=exc)) from exc

    def bodies(self, source_id: str, kinds: Iterable[str], language: str
               ) -> Iterator[tuple[str, str, int]]:
        """(id, kind, body key) of a source's records of these kinds and language, in
        reading order: records of two versions with the same kind and body say the same."""
        kinds = sorted(kinds)
        yield from self._rows(
            f"SELECT id, kind, body FROM records WHERE source_id=? AND language=?"
            f" AND kind IN ({','.join('?' * len(kinds))}) ORDER BY seq",
            (source_id, language, *kinds))

    def same_text_in(self, record_id: str, version: str) -> str | None:
        """The id of the record of rules version ``version`` that says what ``record_id``
        says (same kind and body, in a source of the same format): the index holds one
        document for a text many versions repeat (:mod:`kb.index.spans`)."""
        row = self.conn.execute(
            "SELECT r2.id FROM records r1 JOIN sources s1 ON s1.id = r1.source_id"
            " JOIN records r2 ON r2.number IS r1.number AND r2.version = ?"
            " AND r2.language IS r1.language AND r2.kind = r1.kind AND r2.body = r1.body"
            " JOIN sources s2 ON s2.id = r2.source_id AND s2.format = s1.format"
            " WHERE r1.id = ? ORDER BY r2.seq LIMIT 1", (version, record_id)).fetchone()
        return row[0] if row else None

    def versions(self, formats: tuple[str, ...] = ("cr_text",)) -> list[str]:
        """Effective dates of the rules versions held: those of full rules documents, not of
        the few rules a FAQ quotes."""
        marks = ",".join("?" * len(formats))
        sql = f"SELECT DISTINCT version FROM sources WHERE format IN ({marks}) AND version NOT NULL"
        return sorted(row[0] for row in self.conn.execute(sql, formats))

    def numbers(self, version: str, language: str = "en") -> list[str]:
        cur = self.conn.execute(
            "SELECT number FROM records WHERE kind='rule' AND version=? AND language=?"
            " ORDER BY sort_key",
            (version, language),
        )
        return [row[0] for row in cur]

    def citing(self, number: str, version: str | None = None) -> list[tuple[Record, Citation]]:
        """Records (of ``version`` when given) whose citations include rule ``number``."""
        target = RuleNumber.parse(number)
        if target.rule is None:
            return []
        # Citations of one rule, then the few of a range (a section: "rules 600-699"), each by
        # its own index: a range test alone reads half the table.
        select = (
            f"SELECT r.kind, b.data, r.id, r.version, {_FILE}, r.line, r.crc, c.written, c.first,"
            " c.last, r.sort_key FROM citations c JOIN records r ON r.body = c.body"
            " LEFT JOIN bodies b ON b.hash = r.body WHERE "
        )
        also = " AND r.version = ?" if version is not None else ""
        # A citation of one rule covers that rule and its subrules only: of the hundreds citing
        # some 702.x, those naming 702.19b or an ancestor of it.
        named = [str(target), *(str(a) for a in target.ancestors())]
        marks = ",".join("?" * len(named))
        sql = (f"{select}c.first_rule = ? AND c.last_rule = ? AND (c.first != c.last OR c.first"
               f" IN ({marks})){also} UNION ALL {select}c.last_rule - c.first_rule > 0"
               f" AND c.first_rule <= ? AND c.last_rule >= ?{also}")
        when = [version] if version is not None else []
        args = [target.rule, target.rule, *named, *when, target.rule, target.rule, *when]
        out = []
        rows = self._rows(sql + " ORDER BY 11", args)
        for *row, written, first, last, _sort in rows:
            if target in RuleRange(RuleNumber.parse(first), RuleNumber.parse(last)):
                record = self._record(*row)
                out.append((record, Citation(record.id, written, first, last)))
        return out


# The columns :meth:`Store._record` joins into a record.
# A record's file: its own when it is not its source's.
_FILE = "COALESCE(r.file, (SELECT file FROM sources WHERE sources.id = r.source_id))"
_RECORD = ("SELECT r.kind, (SELECT data FROM bodies WHERE hash = r.body), r.id, r.version,"
           f" {_FILE}, r.line, r.crc FROM records r")


def _descendant_globs(number: RuleNumber) -> tuple[str, str]:
    """Two GLOB patterns that together match every descendant of ``number``."""
    n = str(number)
    if number.depth == 0:
        return f"{n}[0-9][0-9]", f"{n}[0-9][0-9].*"
    if number.depth == 1:
        return f"{n}.*", f"{n}.*"
    return f"{n}[a-z]", f"{n}[a-z][a-z]"


# The term table's order: how much a pair's evidence says, then how often it is attested.
_TERMS_ORDER = (" ORDER BY CASE kind "
                + " ".join(f"WHEN '{kind}' THEN {rank}" for rank, kind in enumerate(TERM_EVIDENCE))
                + f" ELSE {len(TERM_EVIDENCE)} END, count DESC, kind, english, french")


def _glob_prefix(text: str) -> str:
    """A GLOB pattern matching strings that start with ``text`` taken literally."""
    return "".join(f"[{c}]" if c in "*?[]" else c for c in text) + "*"


def _citation_row(body: int, c: Citation) -> tuple[int, str, str, str, int | None, int | None]:
    first, last = RuleNumber.parse(c.first), RuleNumber.parse(c.last)
    # A section citation ("section 6") spans every rule of the section.
    first_rule = first.rule if first.rule is not None else first.section * 100
    last_rule = last.rule if last.rule is not None else last.section * 100 + 99
    return (body, c.written, c.first, c.last, first_rule, last_rule)
