from stemmer.classify.label import align, label_blocks, tokenize


def test_tokens_match_the_scorer_lowercase_words_and_single_cjk_characters():
    assert tokenize("Ｈello, World! 中文abc") == ["hello", "world", "中", "文", "abc"]


def test_blocks_whose_text_is_in_the_gold_are_main():
    texts = ["Home News About", "The bridge will be repaired before winter.", "Share this story", "It costs more."]
    gold = "The bridge will be repaired before winter.\nIt costs more."
    assert label_blocks(texts, gold) == [0, 1, 0, 1]


def test_stray_common_words_do_not_align():
    al = align(["the cat and the dog", "Paragraph about the council meeting today"],
               "Paragraph about the council meeting today")
    assert al.labels() == [0, 1]
    assert al.aligned[0] == 0


def test_one_word_heading_aligns_only_as_a_whole_gold_line():
    texts = ["Contents", "Contents of the report are below and long enough."]
    assert label_blocks(texts, "Contents\nContents of the report are below and long enough.") == [1, 1]
    assert label_blocks(["Home", "We went home early and slept."], "We went home early and slept.") == [0, 1]


def test_recall_counts_gold_tokens_found_in_the_blocks():
    al = align(["one two three four"], "one two three four\nfive six seven eight")
    assert al.gold_tokens == 8 and al.gold_aligned == 4 and al.recall == 0.5


def test_empty_page_or_gold():
    assert align([], "some gold text here").labels() == []
    assert align(["a block of text"], "").labels() == [0]
    assert align([], "").recall == 1.0
