"""Captions, widget labels and embeds inside an article's body (issue 43, mechanisms 4 and 6).

Each page is decided by `page_blocks` with a classifier sure of every block (as the shipped
model is of a sentence-like caption or a quoted tweet), so what goes is the decision's doing.
"""
import numpy as np

from stemmer.blocks import parse_html
from stemmer.classify.features import page_table
from stemmer.extract.decide import page_blocks

PARAS = [
    "The council agreed on Monday to repair the old stone bridge before the winter storms arrive, "
    "after engineers found cracks in two of its five arches during a routine inspection in August.",
    "Work is due to start in October and should take about six weeks, during which the bridge will be "
    "closed to cars and lorries, although pedestrians and cyclists will still be able to cross it.",
    "The repairs will cost the town about two hundred thousand pounds, most of it paid from a national "
    "fund for historic structures, and the rest from the council's own budget for roads and paths.",
    "Residents who spoke at the meeting welcomed the decision, but several asked why the work had not "
    "been done earlier, since the cracks were first reported by a local walking group three years ago.",
    "The council's engineer said that the bridge was safe for now, but that another hard winter could "
    "widen the cracks and force a full closure, which would cut the town in two for many months.",
    "A temporary footbridge will be built beside the old one if the work takes longer than planned, "
    "and buses will be sent the long way round through the next village for the weeks of the closure.",
]
CAPTION = "Engineers inspect the cracked arches of the bridge, which was built in 1820 and last repaired in 1975."
WALKERS = "The footpath over the bridge stays open through the works, with a marshal at each end."
LONG_CAPTION = (CAPTION + " The arches were rebuilt twice in the nineteenth century, once after a flood in 1852 "
                "and once after a cart overturned on them, and the parapet was raised in 1911 by the county.")


def kept(article: str, head: str = "") -> list[str]:
    """The blocks `page_blocks` keeps of a page holding `article`, every block at 0.9."""
    html = (f"<html><head><title>Bridge to be repaired</title></head><body>{head}"
            f"<article>{article}</article></body></html>")
    table = page_table(parse_html(html))
    chosen = page_blocks(table, np.full(len(table.blocks), 0.9), 0.5)
    return [b.text for b, keep in zip(table.blocks, chosen) if keep]


def story(middle: str) -> str:
    """The six paragraphs with `middle` after the third."""
    return "".join(f"<p>{p}</p>" for p in PARAS[:3]) + middle + "".join(f"<p>{p}</p>" for p in PARAS[3:])


def test_a_caption_named_only_inside_a_compound_class_word_goes():
    for caption in (f'<img src=/b.jpg><p class="articleEmbedCaption">{CAPTION}</p>',
                    f'<img src=/b.jpg><div class="photoCredit">{CAPTION}</div>'):
        assert kept(story(caption)) == PARAS


def test_a_caption_two_levels_below_its_figure_with_the_image_in_a_sibling_branch_goes():
    short = (f'<div class="photo-wrap"><div class="media"><img src=/b.jpg></div>'
             f'<div class="text"><div class="inner"><p>{CAPTION}</p></div></div></div>')
    assert kept(story(short)) == PARAS
    # a caption too long to be told by its figure's size alone: a caption word on the way says it
    long = (f'<div class="photo-wrap"><div class="media"><img src=/b.jpg></div>'
            f'<div class="captionText"><div class="inner"><p>{LONG_CAPTION}</p></div></div></div>')
    assert kept(story(long)) == PARAS
    # a card of an icon, a heading and a line is the page's, as is a quotation in a `figure`
    card = (f'<div class="feature"><div class="icon"><img src=/i.svg></div><div class="text">'
            f'<h3>Open to walkers</h3><p>{WALKERS}</p></div></div>')
    quote = f'<figure class="quote"><blockquote><p>{CAPTION}</p></blockquote><img src=/face.jpg></figure>'
    assert kept(story(card + quote)) == PARAS[:3] + ["Open to walkers", WALKERS, CAPTION] + PARAS[3:]


def test_a_paragraph_with_an_emoji_or_beside_one_is_no_caption():
    smiley = '<img class="emoji" src="/smile.png" alt=":)">'
    text = kept(f"<p>{PARAS[0]}</p><p>We are so glad {smiley} that it is done.</p><p>{PARAS[1]}</p>")
    assert text == [PARAS[0], "We are so glad that it is done.", PARAS[1]]


def test_a_gallerys_widget_labels_go_with_its_caption():
    gallery = (f'<div class="gallery"><div class="label">Caption</div>'
               f'<div class="slide"><img src=/b.jpg><p class="slide-caption">{LONG_CAPTION}</p></div>'
               '<div class="controls"><div class="count">3 / 12</div><div class="close">Close</div>'
               '<div class="toggle">hide caption</div></div></div>')
    assert kept(story(gallery)) == PARAS


def test_a_caption_shown_twice_goes_in_both_places():
    # the full view's figure, and the gallery's list of slide texts that a script shows beside the thumbnails
    figure = f"<figure><img src=/b.jpg><figcaption>{CAPTION}</figcaption></figure>"
    texts = f'<ul class="slide-texts"><li>{CAPTION}</li><li>The footbridge of 1911, seen from the river bank.</li></ul>'
    text = kept(story(figure + texts))
    assert CAPTION not in text


def test_a_standfirst_repeated_as_the_bodys_first_paragraph_is_read_once():
    head = f'<header class="page-header"><h1>Bridge to be repaired</h1><p class="standfirst">{PARAS[0]}</p></header>'
    text = kept("".join(f"<p>{p}</p>" for p in PARAS), head=head)
    assert text.count(PARAS[0]) == 1 and text[-5:] == PARAS[1:]
    # the same paragraph twice inside the body (a refrain) stays twice
    assert kept("".join(f"<p>{p}</p>" for p in PARAS + PARAS[:1])).count(PARAS[0]) == 2


TWEET = ("The old bridge is closed from Monday, six weeks of works before the storms. Take the footbridge "
         "or the long way round, and plan your journeys! pic.twitter.com/AbCdEf")


def test_an_embedded_tweet_goes_and_a_signed_quotation_stays():
    for tweet in (f'<blockquote class="twitter-tweet"><p lang="en">{TWEET}</p>&mdash; Town Council (@towncouncil) '
                  '<a href="https://twitter.com/towncouncil/status/1">June 1, 2026</a></blockquote>',
                  # the embed's script has not run and its class is gone: the handle still signs it
                  f'<blockquote><p>{TWEET}</p><p>— Town Council (@towncouncil) June 1, 2026</p></blockquote>',
                  f'<div class="embed instagram-media"><blockquote><p>{TWEET}</p></blockquote></div>'):
        text = kept(story(tweet))
        assert text == PARAS, tweet
    quotation = ("We will not let the bridge fall while this council sits, whatever the repairs cost the town "
                 "and however long the works take.")
    signed = f"<blockquote><p>{quotation}</p><p>— Mayor Anne Smith, at the meeting</p></blockquote>"
    assert quotation in kept(story(signed))


def test_an_inline_video_playlist_goes():
    slides = "".join(f'<li class="slide"><a href="/v/{k}"><img src="/v/{k}.jpg"></a><span class="time">{k + 1}:4{k}</span>'
                     f"<h4>Bridge works, day {k + 1}</h4><p>Crews lift the old stones onto the barge below.</p></li>"
                     for k in range(3))
    playlist = f'<div class="player"><div class="heading">Up next</div><ul class="slides">{slides}</ul></div>'
    assert kept(story(playlist)) == PARAS
