"""The Chinese presets' HSK sentences (issue 36 item 5): each contains its word, each label is a sense of the
preset's own sense table, each listed HSK id is a sentence of the package, and the note says where they come from."""

import sys
from pathlib import Path

import pytest

from playground.alignment import parse_line
from playground.ui.polysemy import presets

SCRIPTS = Path(__file__).resolve().parents[3] / "scripts"


def test_every_preset_sentence_contains_its_word():
    for key, preset in presets.PRESETS.items():
        for line in preset["sentences"]:
            target = parse_line(line, preset["word"])
            if preset.get("cross_lingual"):  # the word or its translation, marked [[...]]
                assert target.span is not None, (key, line)
            else:
                assert preset["word"] in target.text and target.span is not None, (key, line)


def test_labels_come_from_the_sense_table():
    with_table = {key: p for key, p in presets.PRESETS.items() if "senses" in p}
    assert {"da", "hua", "pingguo", "yinhang", "xing", "dian"} <= set(with_table)
    for key, preset in with_table.items():
        labels = {parse_line(line, preset["word"]).label for line in preset["sentences"]}
        assert labels == set(preset["senses"]), key  # no label outside the table, no sense without a sentence


def test_the_hsk_ids_are_hsk_sentences_of_the_preset():
    pytest.importorskip("hsk_sentences_audio")
    sys.path.insert(0, str(SCRIPTS))
    import hsk_corpus

    by_id = {s.id: s.zh for s in hsk_corpus.load()}
    for key, preset in presets.PRESETS.items():
        texts = [parse_line(line, preset["word"]).text for line in preset["sentences"]]
        assert len(set(preset.get("hsk", []))) == len(preset.get("hsk", [])), key
        for sentence_id in preset.get("hsk", []):
            assert by_id[sentence_id] in texts, (key, sentence_id)


@pytest.mark.parametrize("lang, words", [("en", ("HSK", "CC BY-SA 4.0", "by hand")), ("zh", ("HSK", "CC BY-SA 4.0", "手工"))])
def test_the_preset_note_says_the_sentences_are_hsk_and_the_labels_hand_made(lang, words):
    note = presets.preset_note("da", lang)
    assert all(w in note for w in words), note
    assert f"{len(presets.PRESETS['da']['hsk'])}" in note
    assert "HSK" not in presets.preset_note("bank", lang)  # an English preset has no HSK sentence
