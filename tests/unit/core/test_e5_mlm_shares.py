"""scripts/e5_mlm_data.batch_shares: the source mix of train_e5_mlm.py's batches, and what leaving a source out does."""

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def shares():
    sys.path.insert(0, str(ROOT / "scripts"))
    import e5_mlm_data

    return e5_mlm_data.batch_shares


def test_every_source_english_half_word_lists_three_quarters_of_the_chinese(shares):
    got = shares({"libreoffice-help": 300, "debian-faq": 100, "cc-cedict": 1000})
    assert got == pytest.approx({"wordnet": 0.5, "cc-cedict": 0.375, "libreoffice-help": 0.09375, "debian-faq": 0.03125})


def test_a_source_left_out_gives_its_share_as_the_batches_would(shares):
    # No word lists: the Chinese half is all manuals (Texts.batch's n_every = 0).
    assert shares({"libreoffice-help": 300, "debian-faq": 100}) == pytest.approx(
        {"wordnet": 0.5, "libreoffice-help": 0.375, "debian-faq": 0.125}
    )
    # No English: all Chinese; no manuals: the Chinese are all word lists; no Chinese: all English.
    assert shares({"debian-faq": 100, "cc-cedict": 1000}, english=False) == pytest.approx({"cc-cedict": 0.75, "debian-faq": 0.25})
    assert shares({"cc-cedict": 1000}) == pytest.approx({"wordnet": 0.5, "cc-cedict": 0.5})
    assert shares({}) == {"wordnet": 1.0}


def test_everyday_sentences_take_their_share_first_and_the_rest_splits_as_before(shares):
    # HSK 40 % of the Chinese half; of the other 60 %, word lists 3/4 and manuals 1/4, as without HSK.
    got = shares({"libreoffice-help": 300, "cc-cedict": 1000, "hsk": 100})
    assert got == pytest.approx({"wordnet": 0.5, "hsk": 0.2, "cc-cedict": 0.225, "libreoffice-help": 0.075})
    assert shares({"hsk": 100}) == pytest.approx({"wordnet": 0.5, "hsk": 0.5})  # alone, it is the Chinese half
