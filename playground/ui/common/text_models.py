"""Model names in the menus. Registry labels are proper names ("BERT base (uncased)") and stay as they are; the
few that describe what a model is get a translation here, under `models.<registry key>`."""

STRINGS = {
    "models.elmo-small": ("ELMo small (trained here, classroom model)", "ELMo 小模型（本项目训练，课堂用）"),
    "models.minilm-mlm": ("MiniLM + MLM head trained here", "MiniLM + 本项目训练的 MLM 头"),
    "models.minilm-mlm.id": (
        "sentence-transformers/all-MiniLM-L6-v2 + MLM head trained here",
        "sentence-transformers/all-MiniLM-L6-v2 + 本项目训练的 MLM 头",
    ),
    "models.e5-mlm": (
        "multilingual-E5 small, first 6 layers + MLM head trained here",
        "multilingual-E5 small，前 6 层 + 本项目训练的 MLM 头",
    ),
    "models.e5-mlm.id": (
        "intfloat/multilingual-e5-small + MLM head trained here",
        "intfloat/multilingual-e5-small + 本项目训练的 MLM 头",
    ),
    "models.gpt-zh": ("a small classroom GPT, trained here (Chinese)", "小型课堂 GPT（本项目训练，中文）"),
    "models.t5-classroom": ("a small classroom T5, trained here", "课堂用小型 T5（本项目训练）"),
    "models.flan-t5-small": ("Flan-T5 small (instruction-tuned)", "Flan-T5 small（指令微调）"),
    "models.t5-chinese": (
        "Chinese T5 small (UER, CLUECorpusSmall; span corruption only)",
        "中文 T5 small（UER，CLUECorpusSmall；仅做过片段破坏预训练）",
    ),
    "models.bert-nsp": ("BERT base (uncased), NSP head", "BERT base（uncased），NSP 头"),
    "models.e5-nsp": (
        "multilingual-E5 small + next-sentence head trained here (Chinese)",
        "multilingual-E5 small + 本项目训练的下一句预测头（中文）",
    ),
    "models.e5-nsp.id": (
        "intfloat/multilingual-e5-small + NSP head trained here",
        "intfloat/multilingual-e5-small + 本项目训练的 NSP 头",
    ),
    "models.e5-small": ("multilingual-E5 small (4-bit, dequantized)", "multilingual-E5 small（4 位量化，已反量化）"),
    "models.elmo-allennlp-small": (
        "ELMo small (AllenNLP 2x1024_128_2048cnn_1xhighway, 13.6M parameters)",
        "ELMo 小模型（AllenNLP 2x1024_128_2048cnn_1xhighway，1360 万参数）",
    ),
    "models.elmo-allennlp-original": (
        "ELMo original (AllenNLP 2x4096_512_2048cnn_2xhighway, 93.6M parameters)",
        "ELMo 原版（AllenNLP 2x4096_512_2048cnn_2xhighway，9360 万参数）",
    ),
}
