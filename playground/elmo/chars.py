"""Character ids per token, in the layout of AllenNLP's ELMoCharacterMapper.

The published ELMo weights were trained on exactly these ids, so any deviation
(offset, marker, truncation) silently degrades every vector. Written by hand
because no maintained, installable library provides this mapping (AllenNLP is
archived and no longer installs).

Layout of one token (50 slots): begin-of-word, the word's UTF-8 bytes (at most
48, cut at a byte boundary like the original, even inside a multibyte
character), end-of-word, then padding. Every id is shifted by +1 so that id 0
can mean "no token here" (a padded position in a batch).
"""

from __future__ import annotations

import numpy as np

MAX_CHARS = 50
BOS_CHAR = 256  # the one "character" of the begin-of-sentence token <S>
EOS_CHAR = 257  # the one "character" of the end-of-sentence token </S>
BOW_CHAR = 258
EOW_CHAR = 259
PAD_CHAR = 260
N_CHARACTERS = 262  # 0 (mask) + 261 shifted ids; the embedding table size in the options
BOS_TOKEN = "<S>"
EOS_TOKEN = "</S>"
_MAX_BYTES = MAX_CHARS - 2  # room for begin- and end-of-word


def _marker_token(char: int) -> list[int]:
    ids = [PAD_CHAR] * MAX_CHARS
    ids[0], ids[1], ids[2] = BOW_CHAR, char, EOW_CHAR
    return [c + 1 for c in ids]


_SPECIAL = {BOS_TOKEN: _marker_token(BOS_CHAR), EOS_TOKEN: _marker_token(EOS_CHAR)}


def word_char_ids(word: str) -> list[int]:
    """The 50 character ids of one token (already shifted by +1; never 0).

    The literal strings "<S>" and "</S>" are the sentence markers, as in the
    original mapper; unencodable characters are dropped ("ignore").
    """
    special = _SPECIAL.get(word)
    if special is not None:
        return list(special)
    encoded = word.encode("utf-8", "ignore")[:_MAX_BYTES]
    ids = [PAD_CHAR] * MAX_CHARS
    ids[0] = BOW_CHAR
    ids[1 : len(encoded) + 1] = list(encoded)
    ids[len(encoded) + 1] = EOW_CHAR
    return [c + 1 for c in ids]


def batch_char_ids(sentences: list[list[str]], add_boundaries: bool = True) -> np.ndarray:
    """int64 array (batch, longest + 2, 50): <S> tokens </S> per sentence, then zeros.

    Zero rows mark padded positions; the model derives its mask from them, which
    is why a sentence's vectors do not depend on what else is in the batch.
    """
    rows = [([BOS_TOKEN] + list(s) + [EOS_TOKEN]) if add_boundaries else list(s) for s in sentences]
    longest = max((len(r) for r in rows), default=0)
    out = np.zeros((len(rows), longest, MAX_CHARS), dtype=np.int64)
    for i, row in enumerate(rows):
        for j, tok in enumerate(row):
            out[i, j] = word_char_ids(tok)
    return out
