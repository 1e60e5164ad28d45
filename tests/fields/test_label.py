"""`stemmer label` / `stemmer.label`: a field named from one example value, read on every page."""
import json
import random
import shutil
from pathlib import Path

import pytest

import stemmer
from stemmer.cli import main
from stemmer.errors import StemmerError

SHOP = Path(stemmer.__file__).parent / "demo" / "shop"
HOST = "shop.stemmer.test"
PRODUCT = SHOP / HOST / "products" / "classic-knife-block.html"
GOLD = {g["id"]: g for g in map(json.loads, (SHOP.parent / "shop_gold.jsonl").read_text().splitlines())}
EXAMPLES = {"price": "$69.49", "sku": "CVS-KI51324", "specs": "Weight: 5.7 kg", "tags": "Energy",
            "manual": "/manuals/cvs-ki51324.pdf"}


@pytest.fixture(scope="module")
def analyzed(tmp_path_factory):
    """The shop's pattern directory, analyzed once for this module (copy it before writing)."""
    out = tmp_path_factory.mktemp("shop-patterns")
    assert main(["analyze", "-q", str(SHOP), "-o", str(out), "--date", "2024-05-01"]) == 0
    return out


@pytest.fixture
def patterns(analyzed, tmp_path):
    shutil.copytree(analyzed, tmp_path / "patterns")
    return tmp_path / "patterns"


def _extract(patterns, fmt="jsonl", *extra, pages=SHOP):
    out = patterns.parent / f"out.{fmt}"
    assert main(["extract", "-q", "-p", str(patterns), str(pages), "-f", fmt, "-o", str(out), *extra]) == 0
    return out.read_text()


def _check_gold(records):
    """Each product and deal page gives the generator's values."""
    checked = 0
    for rec in records:
        gold = GOLD.get(rec["id"])
        if gold is None:
            continue
        f = rec["fields"]
        assert (f["price"], f["sku"], f["specs"], f["tags"]) == (
            gold["price"], gold["sku"], gold["specs"], gold["tags"]), rec["id"]
        assert f["manual"] == f"http://{HOST}{gold['manual']}"
        checked += 1
    assert checked == len(GOLD) == 72


def test_label_round_trip_on_the_command_line(patterns, capsys):
    args = [f"--field={name}={value}" for name, value in EXAMPLES.items()]
    assert main(["label", "-p", str(patterns), str(PRODUCT), *args, "--pages", str(SHOP)]) == 0
    printed = capsys.readouterr().out
    assert "price: '$69.49' found in layout L0 (exact)" in printed
    assert f'L1 {HOST}/deals/classic-claw-hammer.html: "$49.60"' in printed  # the deal layout, by its label
    doc = json.loads((patterns / f"{HOST}.json").read_text())
    named = {b["field"]: b for lay in doc["layouts"] for b in lay["blocks"] if b.get("field")}
    assert named["tags"]["many"] is True and named["specs"]["many"] is True and "many" not in named["price"]
    assert named["manual"]["type"] == "url" and named["sku"]["prefix"] == "SKU:"
    _check_gold(map(json.loads, _extract(patterns).splitlines()))


def test_a_field_named_on_one_layout_is_named_in_the_other_where_its_slot_aligns(patterns):
    result = stemmer.label(patterns, PRODUCT, {"price": "$69.49", "tags": "Energy"})
    price, tags = result.fields
    # the deal pages hold the price under another key, after the same "Price:" label; the tags under the same key
    assert (price.named, tags.named) == (["L0", "L1"], ["L0", "L1"])
    assert price.not_named == {"L2": "no slot aligns"}
    deal = next(lay for lay in result.site.layouts if lay.id == "L1")
    assert [s.key for s in deal.sections if s.field == "price"] == ["main.deal-page/article.deal/div.deal-box/p.deal-price"]


def test_label_round_trip_in_python_leaves_learned_patterns_unwritten(patterns):
    loaded = stemmer.load_patterns(patterns)
    before = (patterns / f"{HOST}.json").read_bytes()
    result = stemmer.label(loaded, PRODUCT, EXAMPLES, pages=stemmer.read_pages(str(SHOP)))
    assert result.written is None and (patterns / f"{HOST}.json").read_bytes() == before
    assert [v for _, v in result.fields[0].values["L1"]][:1] == ["$49.60"]
    records = stemmer.extract(stemmer.read_pages(str(SHOP)), result.patterns, fallback=None)
    _check_gold({"id": ex.id, "fields": ex.fields} for ex in records)
    page = stemmer.extract_html(PRODUCT.read_text(), f"http://{HOST}/products/classic-knife-block.html",
                                result.patterns)
    assert page.fields["tags"] == ["Energy", "Outdoor", "Made locally"] and page.fields["price"] == "$69.49"


def test_example_found_nowhere_is_one_line_naming_the_closest_blocks_and_writes_nothing(patterns, capsys):
    before = (patterns / f"{HOST}.json").read_bytes()
    code = main(["label", "-p", str(patterns), str(PRODUCT), "--field", "sku=CVS-KI51324",
                 "--field", "price=$9.49"])
    err = capsys.readouterr().err.strip()
    assert code == 1
    assert err.count("\n") == 0 and "price: '$9.49' is in no block of" in err and "'$69.49' (91%)" in err
    assert (patterns / f"{HOST}.json").read_bytes() == before  # sku was found, but nothing is written
    with pytest.raises(StemmerError, match="is in no block"):
        stemmer.label(patterns, PRODUCT, {"colour": "Purple with dots"})


def test_page_of_no_layout_is_an_error(patterns, tmp_path):
    page = tmp_path / HOST / "odd.html"
    page.parent.mkdir()
    page.write_text("<html><body><table><tr><td>$69.49</td></tr></table></body></html>")
    with pytest.raises(StemmerError, match="matches no layout"):
        stemmer.label(patterns, page, {"price": "$69.49"})


def test_many_field_is_a_list_and_a_single_one_a_string(patterns):
    result = stemmer.label(patterns, PRODUCT, {"first_tag": "Energy", "price": "$69.49"}, many=["price"])
    first_tag, price = result.fields
    assert first_tag.many and price.many  # several blocks on the page; asked for
    [ex] = stemmer.extract([next(stemmer.read_pages(str(PRODUCT)))], result.patterns, fallback=None)
    assert ex.fields["first_tag"] == ["Energy", "Outdoor", "Made locally"] and ex.fields["price"] == ["$69.49"]


def test_url_example_gives_the_address_of_the_slots_link(patterns):
    result = stemmer.label(patterns, PRODUCT, {"manual": f"https://{HOST}/manuals/cvs-ki51324.pdf"})
    [manual] = result.fields
    assert (manual.how, manual.field_type) == ("url", "url")
    [value] = [v for page_id, v in manual.values["L0"] if page_id.endswith("classic-knife-block.html")]
    assert value.endswith("/manuals/cvs-ki51324.pdf") and value.startswith(("http://", "https://"))


def test_date_example_is_also_read_as_a_date(tmp_path):
    demo = Path(stemmer.__file__).parent / "demo" / "site"
    out = tmp_path / "news"
    assert main(["analyze", "-q", str(demo), "-o", str(out)]) == 0
    page = demo / "demo.stemmer.test" / "news" / "2023" / "09" / \
        "recycling-pickup-schedule-changes-starting-next-month.html"
    result = stemmer.label(out, page, {"posted": "September 24, 2023"})
    assert result.fields[0].field_type == "date"
    [ex] = stemmer.extract([next(stemmer.read_pages(str(page)))], stemmer.load_patterns(out), fallback=None)
    assert ex.fields["posted_iso"] == "2023-09-24" and "September 24, 2023" in ex.fields["posted"]


def test_named_field_survives_update_and_a_new_analyze(patterns, tmp_path, capsys):
    stemmer.label(patterns, PRODUCT, {"price": "$69.49"})
    crawl = tmp_path / "crawl"
    shutil.copytree(SHOP, crawl)
    new = crawl / HOST / "products" / "classic-knife-block.html"
    new.write_text(new.read_text().replace("$69.49", "$99.00"))  # a new crawl: a price changed
    assert main(["update", "-q", str(patterns), str(crawl), "--date", "2024-06-01"]) == 0
    doc = json.loads((patterns / f"{HOST}.json").read_text())
    assert doc["history"][-1]["command"] == "update"
    assert sorted(lay["id"] for lay in doc["layouts"] for b in lay["blocks"] if b.get("field") == "price") == ["L0", "L1"]
    assert main(["analyze", "-q", str(crawl), "-o", str(patterns)]) == 0
    out = [json.loads(line) for line in _extract(patterns, pages=crawl).splitlines()]
    assert next(r for r in out if r["id"].endswith("classic-knife-block.html"))["fields"]["price"] == "$99.00"
    assert all(r["fields"]["price"] == GOLD[r["id"]]["price"] for r in out if r["id"] in GOLD and "knife-block" not in r["id"])


def test_report_shows_each_layouts_named_fields_and_their_values(patterns, tmp_path):
    from lxml import html as lxml_html
    stemmer.label(patterns, PRODUCT, {"price": "$69.49", "tags": "Energy"})
    out = tmp_path / "report.html"
    assert main(["report", "-q", str(patterns), str(SHOP), "-o", str(out)]) == 0
    dom = lxml_html.fromstring(out.read_bytes())
    deal = dom.xpath("//details[@data-layout='L1']")[0]
    rows = {r.get("data-field"): [td.text_content() for td in r.xpath("td")] for r in deal.xpath(".//tr[@class='field']")}
    assert set(rows) == {"price", "tags"}
    shown = [GOLD[f"{HOST}/{pv}"] for pv in
             (h.text_content().split(f"{HOST}/")[1] for h in deal.xpath(".//details[@class='page']/summary"))]
    assert rows["price"][2:] == [g["price"] for g in shown]
    assert rows["tags"][2:] == [" · ".join(g["tags"]) for g in shown]
    assert "field price" in deal.xpath(".//table[@class='slots']")[0].text_content()


def test_values_are_shown_on_the_layouts_pages_seen_at_analyze_found_beside_the_page(patterns, capsys):
    assert main(["label", "--dry-run", "-p", str(patterns), str(PRODUCT), "--field", "price=$69.49"]) == 0
    printed = capsys.readouterr().out
    assert "deals/classic-claw-hammer.html: \"$49.60\"" in printed  # a member of the deal layout, not PAGE's
    assert printed.count("\n  L0 ") == 5 and printed.count("\n  L1 ") == 5


def test_label_is_in_the_history_and_a_pat_file_is_refused(patterns, tmp_path):
    stemmer.label(patterns, PRODUCT, {"price": "$69.49"})
    doc = json.loads((patterns / f"{HOST}.json").read_text())
    assert {k: doc["history"][-1][k] for k in ("command", "fields")} == {"command": "label", "fields": ["price"]}
    pat = tmp_path / "site.pat"
    pat.write_text("(500.0, '200511210103/shop.stemmer.test/b.html', 0, [(0.9, 30.0, 'body/div:class=inner/p')])\n")
    with pytest.raises(StemmerError, match="a Webstemmer .pat file"):
        stemmer.label(pat, PRODUCT, {"price": "$69.49"})
    assert pat.read_text().startswith("(500.0")


def test_stats_show_a_redesign_that_moved_a_field_out_of_its_slot(patterns, tmp_path, capsys):
    stemmer.label(patterns, PRODUCT, {"price": "$69.49"})
    crawl = tmp_path / "crawl"
    shutil.copytree(SHOP, crawl)
    products = sorted((crawl / HOST / "products").glob("*.html"))
    for page in products[:12]:  # a redesign of a quarter of the products: the price in another element
        page.write_text(page.read_text().replace('<p class="price">', '<p class="offer-price">'))
    stats = tmp_path / "stats.json"
    _extract(patterns, "jsonl", "--stats", str(stats), pages=crawl)
    fields = json.loads(stats.read_text())["sites"][HOST]["fields"]
    assert fields["L0"]["price"] == {"pages": 48, "empty": 12, "empty_share": 0.25}
    assert fields["L1"]["price"] == {"pages": 24, "empty": 0, "empty_share": 0.0}
    assert main(["extract", "-p", str(patterns), str(crawl), "-o", str(tmp_path / "x.jsonl")]) == 0
    assert f"stemmer: extract: {HOST}: layout L0: field 'price' empty on 12 of 48 pages (25%)" in capsys.readouterr().err


def test_an_ambiguous_date_example_reads_in_the_order_the_page_states(tmp_path):
    words = "river maple copper lantern orchard pebble harbor thistle meadow cinder quarry willow".split()

    def post(n: int) -> str:
        day = 3 + n
        pick = random.Random(n)  # each post's own words: a body that varies from page to page
        text = " ".join(pick.choice(words) + str(pick.randrange(100)) for _ in range(60))
        return (f"<html><head><meta property='article:published_time' content='2024-04-{day:02d}'></head><body>"
                f"<header><p class='site'>US Notes</p></header><article><h1>{words[n]} and {words[-n]}</h1>"
                f"<p class='when'>Posted 04/{day:02d}/2024</p><p>{text}.</p><p>{text[::-1]}.</p>"
                f"</article><footer><p>Copyright US Notes</p></footer></body></html>")
    pages = [stemmer.Page(f"us.example/p{n}.html", f"http://us.example/p{n}.html", "us.example", post(n))
             for n in range(6)]
    patterns = stemmer.analyze(pages, site_model=False)
    result = stemmer.label(patterns, pages[0], {"posted": "04/03/2024"})
    [lab] = result.fields
    assert (lab.field_type, lab.day_first) == ("date", False)  # the page states April 3rd: month first
    [ex] = stemmer.extract([pages[5]], result.patterns, fallback=None)
    assert ex.fields["posted_iso"] == "2024-04-08"
