"""Strings of the live class: the "Class" tab (teacher), the board (projector) and the student's phone page."""

STRINGS = {
    "class.tab": ("Class", "课堂"),
    "class.intro": (
        "Let the class predict before it watches: students answer on their phones, the board shows only how many have "
        "answered, and when you reveal, the class's answers appear beside the model's. Choose an activity, a model and "
        "a sentence, then press **Start a class session**: this page becomes the board (put it on the projector), with "
        "a join code, a QR code and a link. Nothing needs an account; the session and its answers are deleted when it "
        "ends (after 3 hours at most).",
        "先预测、再观看：学生用手机作答，大屏只显示已作答人数；揭晓时，全班的答案与模型的答案并排出现。选择活动、模型和句子，"
        "然后按 **开始课堂互动**：本页即成为大屏（投到投影上），显示加入码、二维码和链接。无需账号；会话及其答案在结束时"
        "（最多 3 小时后）删除。",
    ),
    "class.activity": ("Activity", "活动"),
    "class.activity.fill_blank": ("Fill the blank", "填空"),
    "class.activity.temperature": ("Which temperature wrote this?", "哪个温度写的？"),
    "class.activity.attention": ("Where does it look?", "它在看哪里？"),
    "class.activity.next_token": ("Next token", "下一个词元"),
    "class.activity.sentences": ("Our sentences, one picture", "我们的句子，一张图"),
    "class.model": ("Model", "模型"),
    "class.text": ("Sentence or prompt", "句子或提示"),
    "class.text_info": (
        "Fill the blank: put [MASK] in it. Where does it look: put the word to follow between asterisks (*it*). "
        "Our sentences: the word, then 2 to 4 senses, after bars (bank | river | money).",
        "填空：在句中放 [MASK]。它在看哪里：把要跟随的词放在两个星号之间（*它*）。"
        "我们的句子：先写词，再写 2 到 4 个意思，用竖线隔开（苹果 | 水果 | 公司）。",
    ),
    "class.start": ("Start a class session", "开始课堂互动"),
    "class.add": ("Add as the next question", "添加为下一题"),
    "class.hint": (
        "Press **Start a class session**: the board appears here, with the code students type.",
        "按 **开始课堂互动**：大屏内容会出现在这里，附有学生输入的加入码。",
    ),
    "class.controls": ("Teacher controls", "教师控制"),
    "class.prev": ("◀ Previous", "◀ 上一题"),
    "class.next": ("Next ▶", "下一题 ▶"),
    "class.revote": ("Discuss, then revote", "讨论后再投一次"),
    "class.reveal": ("Reveal", "揭晓"),
    "class.reopen": ("Reopen answers", "重新开放作答"),
    "class.close": ("End the session (deletes it)", "结束会话（删除数据）"),
    "class.hide": ("Hide an answer or nickname", "隐藏某个答案或昵称"),
    "class.hide_button": ("Hide", "隐藏"),
    "class.csv": ("Answers as CSV (nicknames and answers only)", "答案 CSV（仅昵称和答案）"),
    "class.teacher_link": (
        "Your teacher link — keep it private: it runs this session from any device",
        "教师链接——请勿公开：用它可以在任何设备上控制本会话",
    ),
    "class.board_link": (
        "Open the board in its own window (projector, with your controls)",
        "在单独窗口打开大屏（投影用，带教师控制）",
    ),
    "class.ended": ("The session has ended and its answers are deleted.", "会话已结束，答案已删除。"),
    # the board
    "class.join_at": ("Join at", "加入地址"),
    "class.code": ("Code", "加入码"),
    "class.scan": ("Scan to join", "扫码加入"),
    "class.question_n": ("Question {n} of {total}", "第 {n} 题，共 {total} 题"),
    "class.answered": ("{answered} of {students} answered", "已作答 {answered} / {students} 人"),
    "class.round2": ("Second vote: talk to your neighbour, then answer again.", "第二轮：先和同桌讨论，再作答一次。"),
    "class.hidden_until": ("The answers stay hidden until the teacher reveals them.", "在老师揭晓之前，答案保持隐藏。"),
    "class.joined": ("Joined:", "已加入："),
    "class.the_class": ("The class", "全班"),
    "class.first_vote": ("First vote", "第一轮"),
    "class.second_vote": ("Second vote", "第二轮"),
    "class.the_model": ("The model ({model})", "模型（{model}）"),
    "class.agree": (
        "{agree} of {total} gave the model's answer ({answer}).",
        "{total} 人中有 {agree} 人的答案与模型一致（{answer}）。",
    ),
    "class.correct": ("{agree} of {total} matched all three ({answer}).", "{total} 人中有 {agree} 人全部配对正确（{answer}）。"),
    "class.no_answers": ("No answers yet.", "还没有答案。"),
    "class.hidden_n": ("{n} hidden by the teacher.", "老师隐藏了 {n} 个。"),
    "class.prompt.fill_blank": ("Which word fills the blank?", "空格里应该填哪个词？"),
    "class.prompt.temperature": (
        "Three continuations of the same prompt, at temperature 0.1, 0.8 and 1.5. Which is which?",
        "同一提示的三段续写，温度分别为 0.1、0.8、1.5。哪段对应哪个温度？",
    ),
    "class.prompt.attention": (
        "Layer {layer}, head {head}: which word does “{focus}” attend to most?",
        "第 {layer} 层、第 {head} 个头：“{focus}”最关注哪个词？",
    ),
    "class.prompt.next_token": ("What does the model write next?", "模型接下来会写什么？"),
    "class.text_n": ("Text {n}", "文本 {n}"),
    "class.prompt.sentences": (
        "Write a sentence that uses “{word}”, and pick the sense it has there.",
        "用“{word}”写一个句子，并选出它在句中的意思。",
    ),
    "class.senses": ("senses:", "意思："),
    "class.one_point": ("{n} sentences, one point", "{n} 个句子，一个点"),
    "class.side_contextual": ("In context: {model}, layer {layer}", "上下文向量：{model}，第 {layer} 层"),
    "class.side_static": ("Static: {model}'s input embeddings", "静态向量：{model} 的输入嵌入"),
    "class.nearest": ("Nearest sentence has the same sense: {share}", "最近的句子意思相同：{share}"),
    "class.nearest_short": ("nearest sentence, same sense", "最近的句子意思相同"),
    "class.nearest_needs": (
        "The model's score needs two sentences of each sense.",
        "模型的得分需要每个意思至少两个句子。",
    ),
    "class.in_context": ("In context", "上下文向量"),
    "class.static": ("Static", "静态向量"),
    "class.unplaced": (
        "{n} left out: no token of the model covers the word in that sentence.",
        "{n} 个句子未画出：模型没有覆盖该词的词元。",
    ),
    "class.colours_hidden": (
        "Each dot is one student's sentence. Their senses (the colours) stay hidden until the teacher reveals them.",
        "每个点是一位学生的句子。句子的意思（颜色）在老师揭晓之前保持隐藏。",
    ),
    "class.cloud": ("Word cloud", "词云"),
    # the student's phone
    "class.student_title": ("Join the class", "加入课堂"),
    "class.your_code": ("Class code", "课堂加入码"),
    "class.nickname": ("Nickname (optional)", "昵称（可不填）"),
    "class.join": ("Join", "加入"),
    "class.your_answer": ("Your answer", "你的答案"),
    "class.send": ("Send", "提交"),
    "class.sent": (  # the answer last: a sentence's own full stop is not followed by the message's
        "Sent (you may change it until the teacher closes the question): {answer}",
        "已提交（老师关闭本题之前，你可以修改）：{answer}",
    ),
    "class.yours": ("Your answer: {answer}", "你的答案：{answer}"),
    "class.wait": ("Wait for the teacher's reveal.", "请等待老师揭晓。"),
    "class.pick": ("pick…", "选择…"),
    "class.your_sentence": ("Your sentence", "你的句子"),
    "class.its_sense": ("Its sense there", "它在句中的意思"),
    "class.see_board": ("The picture of everyone's sentences is on the board.", "全班句子的图在大屏上。"),
    "class.lang": ("中文", "English"),
    # errors (the backend's codes)
    "error.class_unknown_code": (
        "No class with this code: check it with your teacher (it may have ended).",
        "没有这个加入码的课堂：请和老师核对（课堂可能已结束）。",
    ),
    "error.class_not_teacher": ("Only the teacher's link can do this.", "只有教师链接可以执行此操作。"),
    "error.class_full": (
        "The server holds as many class sessions as it may: try again later.",
        "服务器上的课堂会话已达上限：请稍后再试。",
    ),
    "error.class_server_busy": (
        "The server holds as many students as it may: try again later.",
        "服务器上的学生人数已达上限：请稍后再试。",
    ),
    "error.class_class_full": ("This class is full ({limit} students).", "本课堂已满（{limit} 名学生）。"),
    "error.class_too_many": ("A session holds at most {limit} questions.", "一个会话最多 {limit} 道题。"),
    "error.class_not_joined": (
        "Join the class first (your phone lost its place: scan the code again).",
        "请先加入课堂（你的手机丢失了会话：请重新扫码）。",
    ),
    "error.class_closed_question": ("The teacher has closed this question.", "老师已关闭本题。"),
    "error.class_empty_answer": ("Type an answer first.", "请先输入答案。"),
    "error.class_bad_choice": ("Pick one of the options shown.", "请从给出的选项中选一个。"),
    "error.class_bad_match": ("Give each text a different label.", "请给每段文本选不同的温度。"),
    "error.class_empty_text": ("Type the question's sentence first.", "请先输入题目的句子。"),
    "error.class_attention_short": ("Write a sentence of at least two words.", "请写一个至少两个词的句子。"),
    "error.class_pick_sense": ("Pick the sense your sentence uses.", "请选出你的句子所用的意思。"),
    "error.class_long_sentence": ("Keep your sentence under {limit} characters.", "句子请不要超过 {limit} 个字符。"),
    "error.class_no_target": ("Your sentence must use the word “{word}”.", "你的句子必须用到“{word}”这个词。"),
    "error.class_bad_senses": (
        "Write the word, then 2 to {most} senses, all after bars: “bank | river | money”.",
        "先写词，再写 2 到 {most} 个意思，用竖线隔开：“苹果 | 水果 | 公司”。",
    ),
    "error.class_no_session": ("Start a class session first.", "请先开始课堂互动。"),
    "error.class_slow_down": (
        "Too many wrong codes from your address: wait a minute, then try again.",
        "你的地址输错加入码次数过多：请等一分钟再试。",
    ),
}
