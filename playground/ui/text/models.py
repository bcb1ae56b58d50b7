"""Model names in the menus. Registry labels are proper names ("BERT base (uncased)") and stay as they are; the
few that describe what a model is get a translation here, under `models.<registry key>`."""

STRINGS = {
    "models.elmo-small": ("ELMo small (trained here, classroom model)", "ELMo 小模型（本项目训练，课堂用）"),
    "models.minilm-mlm": ("MiniLM + MLM head trained here", "MiniLM + 本项目训练的 MLM 头"),
    "models.bert-nsp": ("BERT base (uncased), NSP head", "BERT base（uncased），NSP 头"),
}
