"""Inside BERT: the views the lessons need that look inside the architecture rather than at its predictions.

- `embeddings_input`: BERT's input = token + segment + position embeddings, summed and normalised.
- `params`: ALBERT's savings, counted on models built from published configs on the meta device.
- `nsp`: next-sentence prediction, how its training pairs are built, RoBERTa's packing, ALBERT's sentence order.
- `heads`: which encoder outputs feed each fine-tuning head, and how many parameters the head adds.
"""
