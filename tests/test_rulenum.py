import pytest

from kb.rulenum import RuleNumber, RuleNumberError, RuleRange


def n(text: str) -> RuleNumber:
    return RuleNumber.parse(text)


@pytest.mark.parametrize("written", ["702.27.", "702.27", " 702.27 "])
def test_written_forms_of_a_subrule(written):
    assert str(n(written)) == "702.27"


@pytest.mark.parametrize("written", ["702.27a", "702.27 a", "702.27a."])
def test_written_forms_of_a_lettered_subrule(written):
    assert str(n(written)) == "702.27a"


def test_depths():
    assert [n(x).depth for x in ("7", "702", "702.19", "702.19b")] == [0, 1, 2, 3]


@pytest.mark.parametrize("bad", ["", "abc", "70", "7.1", "702.", "702.19B", "1000", "0"])
def test_rejects_what_is_not_a_rule_number(bad):
    if bad == "702.":  # "702." is the heading form of rule 702
        assert str(n(bad)) == "702"
        return
    with pytest.raises(RuleNumberError):
        n(bad)


def test_order_is_numeric_not_textual():
    assert n("100.2") < n("100.10")
    assert n("702.19") < n("702.19a") < n("702.19b")
    assert n("702.10") != n("702.100")
    assert n("702.99") < n("702.100")
    assert n("7") < n("700") < n("700.1") < n("701")
    assert sorted(map(n, ["702.100", "702.19b", "702.2", "702", "7"])) == list(
        map(n, ["7", "702", "702.2", "702.19b", "702.100"])
    )


def test_parent_and_ancestors():
    assert n("702.19b").parent == n("702.19")
    assert n("702.19").parent == n("702")
    assert n("702").parent == n("7")
    assert n("7").parent is None
    assert n("702.19b").ancestors() == [n("702.19"), n("702"), n("7")]
    assert n("702.19b").is_within(n("702"))
    assert not n("702.190").is_within(n("702.19"))
    assert n("702.19a").is_child_of(n("702.19"))


def test_letter_range():
    r = RuleRange.parse("601.2a-h")
    assert (str(r.first), str(r.last)) == ("601.2a", "601.2h")
    assert n("601.2e") in r
    assert n("601.2i") not in r
    assert n("601.3") not in r


def test_full_range_includes_subrules_of_its_last_rule():
    r = RuleRange.parse("702.45–702.47")
    assert n("702.46b") in r and n("702.47c") in r
    assert n("702.48") not in r and n("702.44") not in r


def test_short_range_and_through():
    assert str(RuleRange.parse("702.45-47")) == "702.45-702.47"
    assert str(RuleRange.parse("702.45 through 702.47")) == "702.45-702.47"


def test_backward_range_is_refused():
    with pytest.raises(RuleNumberError):
        RuleRange.parse("702.47-702.45")


@pytest.mark.parametrize("typed", ["702.19B", "CR 702.19b", "rule 702.19b", "Rules 702.19b",
                                   "règle 702.19b", "regra 702.19b", "r. 702.19b", "§ 702.19b",
                                   "702,19b", "702.19b:", " 702.19 b "])
def test_read_takes_what_people_type(typed):
    assert str(RuleNumber.read(typed)) == "702.19b"


@pytest.mark.parametrize("written", ["rule 702.19b", "CR 702.19b", "702,19b", "702.19B"])
def test_parse_stays_strict_for_documents(written):
    """In a document, "rule 702.19b" is a citation and "702,19b" a list: not a number."""
    assert RuleNumber.try_parse(written) is None
    assert RuleNumber.try_read(written) is not None


def test_a_word_is_not_read_as_a_number():
    assert RuleNumber.try_read("trample") is None
    assert RuleNumber.try_read("rule") is None
