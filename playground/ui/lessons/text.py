"""Lessons tab: its own labels, English and Chinese (the lessons' words are playground/lessons/text.py)."""

STRINGS = {
    "lessons.tab": ("Lessons", "课程"),
    "lessons.intro": (
        "**Start here.** One short lesson per idea of the course, in the course's order, then its five exercises. "
        "Pick a lesson, read it, then press **Try it**: the demo tab opens with the lesson's inputs and runs.",
        "**从这里开始。** 按课程顺序，每个概念一节短课，最后是课程的五个练习。"
        "选一节课，读完后点 **动手试试**：相应的演示标签页会带着本课的输入打开并运行。",
    ),
    "lessons.pick": ("Lesson", "课程"),
    "lessons.previous": ("← Previous", "← 上一课"),
    "lessons.next": ("Next lesson →", "下一课 →"),
    "lessons.opens": ("Opens the **{tab}** tab.", "打开 **{tab}** 标签页。"),
}
