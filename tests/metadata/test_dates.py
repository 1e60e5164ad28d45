from datetime import date, datetime

import pytest

from stemmer.metadata import parse_date


@pytest.mark.parametrize("text, expected", [
    ("2025-09-04", "2025-09-04"),
    ("2025-09-04T10:00:00Z", "2025-09-04T10:00:00+00:00"),
    ("2025-09-04T10:00:00.000+0900", "2025-09-04T10:00:00+09:00"),
    ("2025/9/4", "2025-09-04"),
    ("20250904", "2025-09-04"),
    ("March 5, 2024", "2024-03-05"),
    ("Mon Nov 23, 2015", "2015-11-23"),
    ("Posted on Sept. 5th, 2024 at 10:30 pm", "2024-09-05T22:30"),
    ("20 Dec 2025", "2025-12-20"),                 # "De" is not Spanish "de" here
    ("Sat, 20 Dec, 2025 - 06:36", "2025-12-20T06:36"),
    ("5 mars 2024", "2024-03-05"),                 # fr
    ("1er décembre 2020", "2020-12-01"),
    ("5 de marzo de 2024", "2024-03-05"),          # es
    ("12 Marzo 2021", "2021-03-12"),               # it
    ("5. März 2024", "2024-03-05"),                # de
    ("28 Julho 2014", "2014-07-28"),               # pt
    ("5 maart 2024", "2024-03-05"),                # nl
    ("2 stycznia 2023", "2023-01-02"),             # pl, genitive
    ("5 Ekim 2023", "2023-10-05"),                 # tr
    ("5 октября 2023 г.", "2023-10-05"),           # ru, genitive
    ("5 Agustus 2023", "2023-08-05"),              # id
    ("2024年3月5日", "2024-03-05"),                # ja, zh
    ("2024年 11月 20日", "2024-11-20"),
    ("2024년 3월 5일", "2024-03-05"),              # ko
    ("۱۴ فروردین ۱۴۰۲", "2023-04-03"),             # fa, Solar Hijri (1 Farvardin 1402 = 2023-03-21)
    ("۵ مارس ۲۰۲۴", "2024-03-05"),                 # fa, Gregorian month
    ("مهٔ 4, 2017", "2017-05-04"),                 # fa, with a hamza mark
])
def test_written_dates(text, expected):
    assert parse_date(text) == expected


def test_numeric_dates_read_by_their_unambiguous_part_then_the_language():
    assert parse_date("13/04/2024", lang="en") == "2024-04-13"
    assert parse_date("04/13/2024", lang="fr") == "2024-04-13"
    assert parse_date("04/05/2024", lang="en") == "2024-04-05"
    assert parse_date("04/05/2024", lang="fr") == "2024-05-04"
    assert parse_date("04.05.2024", lang="de") == "2024-05-04"
    assert parse_date("05-09-2020", lang="en") == "2020-09-05"  # dashes and dots: day first, in English too
    assert parse_date("05.09.2020", lang="en", day_first=False) == "2020-05-09"
    assert parse_date("04/05/2024", lang="fr", day_first=False) == "2024-04-05"


@pytest.mark.parametrize("text, expected", [
    ("3 days ago", "2025-01-07"),
    ("2 weeks ago", "2024-12-27"),
    ("yesterday", "2025-01-09"),
    ("Today", "2025-01-10"),
    ("il y a 3 jours", "2025-01-07"),
    ("hace 3 días", "2025-01-07"),
    ("3 giorni fa", "2025-01-07"),
    ("vor 3 Tagen", "2025-01-07"),
    ("3 dagen geleden", "2025-01-07"),
    ("3 dni temu", "2025-01-07"),
    ("3 gün önce", "2025-01-07"),
    ("3 дня назад", "2025-01-07"),
    ("3日前", "2025-01-07"),
    ("3天前", "2025-01-07"),
    ("3일 전", "2025-01-07"),
])
def test_relative_dates_count_back_from_the_reference(text, expected):
    assert parse_date(text, reference=date(2025, 1, 10)) == expected
    assert parse_date(text, reference=datetime(2025, 1, 10, 8, 0)) == expected


def test_relative_dates_need_a_reference():
    assert parse_date("3 days ago") is None


@pytest.mark.parametrize("text", ["40 years ago", "999999 days ago", "99999999999 years ago"])
def test_a_relative_date_before_the_web_is_none_not_an_overflow(text):
    assert parse_date(text, reference=date(2025, 1, 10)) is None


@pytest.mark.parametrize("text", [
    None, "", "hierarchy", "3 answers", "Page 12 of 40", "March 2024", "2024-13-45", "31/02/2024",
    "Copyright 1890-01-01", "version 1.2.3",
])
def test_no_date(text):
    assert parse_date(text, reference=date(2025, 1, 10)) is None


def test_the_first_date_of_a_line_wins():
    assert parse_date("Published 5 March 2024 · Updated 2024-06-01") == "2024-03-05"


@pytest.mark.parametrize("text, expected", [
    ("2025-09-04t10:00z", "2025-09-04T10:00+00:00"),
    ("2025-09-04 10:00:07 +05:30 ", "2025-09-04T10:00:07+05:30"),
    ("2025-09-04T10:00:00.5-0800", "2025-09-04T10:00:00-08:00"),
    ("2025-09-04T24:00:00Z", "2025-09-04"),  # not a time of day: the day alone
    ("2025-09-04T10:61", "2025-09-04"),
    ("  2025-09-04T10:00:00Z", "2025-09-04"),  # after spaces the time is looked for where the date ends unspaced
    ("2025-09-31T10:00", None),
])
def test_an_iso_date_s_time_as_the_general_reading_finds_it(text, expected):
    assert parse_date(text) == expected
    assert parse_date(text) == expected  # again, from the memo


def test_the_memo_keeps_each_reading_apart():
    assert parse_date("03/04/2024", lang="en") == "2024-03-04"
    assert parse_date("03/04/2024", lang="fr") == "2024-04-03"
    assert parse_date("03/04/2024", day_first=False) == "2024-03-04"
    assert parse_date("3 days ago", reference=date(2024, 3, 10)) == "2024-03-07"
    assert parse_date("3 days ago", reference=date(2024, 3, 11)) == "2024-03-08"
    assert parse_date("3 days ago") is None


def test_a_copyright_year_is_never_a_dates_year():
    assert parse_date("© 2025 March 3 people like this") is None
    assert parse_date("Copyright 2024 May 1 comment") is None
    assert parse_date("2024 March 5") == "2024-03-05"


@pytest.mark.parametrize("text, iso", [
    ("5. marts 2024", "2024-03-05"), ("12 augusti 2023", "2023-08-12"), ("2024. március 5.", "2024-03-05"),
    ("5 de març de 2024", "2024-03-05"), ("12 січня 2024", "2024-01-12"), ("3 Μαΐου 2021", "2021-05-03"),
    ("14 května 2022", "2022-05-14"), ("3 iunie 2020", "2020-06-03"),
])
def test_month_names_of_more_languages(text, iso):  # da, sv, hu, ca, uk, el, cs, ro pages of the dates set's kind
    assert parse_date(text) == iso
