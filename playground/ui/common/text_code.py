"""Strings of the Code panels and the notebook downloads (every tab has one Code panel)."""

STRINGS = {
    "code.title": ("Code: reproduce this view in Python", "代码：用 Python 复现这个视图"),
    "code.info": (
        "The script that prints the numbers of the last run, written the way the course writes it. Paste it into a "
        "notebook or save it anywhere: with the bundled models it finds the playground's folder through "
        "PLAYGROUND_HOME (its first lines say how to get one). {where}",
        "打印上次运行结果的脚本，写法与课程相同。可粘贴到笔记本中或保存在任意位置运行：使用内置模型时，它通过 "
        "PLAYGROUND_HOME 找到游乐场的目录（脚本开头说明了如何获取）。{where}",
    ),
    "code.offline": ("It runs offline.", "它可以离线运行。"),
    "code.hub": ("It needs the Hugging Face Hub for its models.", "它需要访问 Hugging Face Hub 下载模型。"),
    "code.empty": ("# Run the view first: its code appears here.", "# 先运行这个视图，代码会显示在这里。"),
    "code.none": ("# This view has no script yet.", "# 这个视图还没有脚本。"),
    "lessons.notebook": ("Download this lesson as a notebook", "下载本课的笔记本"),
    "lessons.notebook_file": ("Notebook (.ipynb)", "笔记本（.ipynb）"),
    "error.code_request_type": ("request must be a JSON object given as text.", "request 必须是以文本形式给出的 JSON 对象。"),
    "error.code_request_json": ("request is not valid JSON ({why}).", "request 不是有效的 JSON（{why}）。"),
    "error.code_request_fields": ("request does not fit /{view}: {why}.", "request 与 /{view} 的参数不符：{why}。"),
}
