"""The MLM lab: fine-tune a masked LM on your own corpus and watch its predictions for the corpus's words change."""
