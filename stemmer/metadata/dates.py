"""Read a date as a page writes it ("March 5, 2024", "5 mars 2024", "2024年3月5日", "3 days ago") as ISO 8601.

Our own small parser rather than ``dateparser``: it knows the month names and
relative phrases of the languages of our data sets (en, fr, es, it, de, pt,
nl, pl, tr, ru, id, fa, da, sv, ca, hu, ro, cs, uk, el by name; ja, zh, ko by
their 年/月/日 marks), needs no dependency, and parses a date in microseconds (``dateparser`` measured in
benchmarks/metadata.py's ``--dateparser``).  It returns None rather than guess:
a date needs a year, a month and a day, and a relative date needs a reference
date to count from.
"""
from __future__ import annotations

import functools
import re
from datetime import date, datetime, timedelta

# Month names and their usual abbreviations, by language; genitive and other
# declined forms where the language writes the month so in a date.
_MONTHS = {
    "en": ["january jan", "february feb", "march mar", "april apr", "may", "june jun", "july jul",
           "august aug", "september sep sept", "october oct", "november nov", "december dec"],
    "fr": ["janvier janv", "février fevrier févr fevr", "mars", "avril avr", "mai", "juin", "juillet juil",
           "août aout", "septembre", "octobre", "novembre", "décembre decembre déc"],
    "es": ["enero ene", "febrero", "marzo", "abril", "mayo", "junio", "julio", "agosto ago",
           "septiembre setiembre", "octubre", "noviembre", "diciembre dic"],
    "it": ["gennaio gen", "febbraio", "marzo", "aprile", "maggio mag", "giugno giu", "luglio lug",
           "agosto", "settembre set", "ottobre ott", "novembre", "dicembre"],
    "de": ["januar jänner jan", "februar", "märz maerz mär", "april", "mai", "juni", "juli", "august",
           "september", "oktober okt", "november", "dezember dez"],
    "pt": ["janeiro", "fevereiro fev", "março marco", "abril abr", "maio", "junho", "julho", "agosto",
           "setembro set", "outubro out", "novembro", "dezembro dez"],
    "nl": ["januari", "februari", "maart mrt", "april", "mei", "juni", "juli", "augustus",
           "september", "oktober", "november", "december"],
    "pl": ["styczeń stycznia sty", "luty lutego lut", "marzec marca", "kwiecień kwietnia kwi", "maj maja",
           "czerwiec czerwca cze", "lipiec lipca lip", "sierpień sierpnia sie", "wrzesień września wrz",
           "październik października paź", "listopad listopada lis", "grudzień grudnia gru"],
    "tr": ["ocak", "şubat subat", "mart", "nisan", "mayıs mayis", "haziran", "temmuz", "ağustos agustos",
           "eylül eylul", "ekim", "kasım kasim", "aralık aralik"],
    "ru": ["январь января янв", "февраль февраля фев", "март марта", "апрель апреля апр", "май мая",
           "июнь июня", "июль июля", "август августа авг", "сентябрь сентября сен", "октябрь октября окт",
           "ноябрь ноября ноя", "декабрь декабря дек"],
    "id": ["januari", "februari", "maret", "april", "mei", "juni", "juli", "agustus",
           "september", "oktober", "november", "desember"],
    "da": ["januar", "februar", "marts", "april", "maj", "juni", "juli", "august", "september", "oktober",
           "november", "december"],
    "sv": ["januari", "februari", "mars", "april", "maj", "juni", "juli", "augusti", "september", "oktober",
           "november", "december"],
    "ca": ["gener", "febrer", "març", "abril", "maig", "juny", "juliol", "agost", "setembre", "octubre",
           "novembre", "desembre"],
    "hu": ["január", "február", "március", "április", "május", "június", "július", "augusztus", "szeptember",
           "október", "november", "december"],
    "ro": ["ianuarie", "februarie", "martie", "aprilie", "mai", "iunie", "iulie", "august", "septembrie",
           "octombrie", "noiembrie", "decembrie"],
    "cs": ["leden ledna", "únor února", "březen března", "duben dubna", "květen května", "červen června",
           "červenec července", "srpen srpna", "září", "říjen října", "listopad listopadu", "prosinec prosince"],
    "uk": ["січень січня", "лютий лютого", "березень березня", "квітень квітня", "травень травня",
           "червень червня", "липень липня", "серпень серпня", "вересень вересня", "жовтень жовтня",
           "листопад листопада", "грудень грудня"],
    "el": ["ιανουάριος ιανουαρίου", "φεβρουάριος φεβρουαρίου", "μάρτιος μαρτίου", "απρίλιος απριλίου",
           "μάιος μαΐου", "ιούνιος ιουνίου", "ιούλιος ιουλίου", "αύγουστος αυγούστου",
           "σεπτέμβριος σεπτεμβρίου", "οκτώβριος οκτωβρίου", "νοέμβριος νοεμβρίου", "δεκέμβριος δεκεμβρίου"],
    "fa": ["ژانویه", "فوریه", "مارس", "آوریل", "مه مهٔ می", "ژوئن", "ژوئیه ژوئیهٔ جولای", "اوت آگوست", "سپتامبر",
           "اکتبر", "نوامبر", "دسامبر"],
}
# The Solar Hijri months (Persian sites date by them): converted to the Gregorian calendar.
_JALALI_MONTHS = ["فروردین", "اردیبهشت", "خرداد", "تیر", "مرداد", "شهریور", "مهر", "آبان", "آذر", "دی",
                  "بهمن", "اسفند"]
MONTHS: dict[str, int] = {}
for _names in _MONTHS.values():
    for _n, _forms in enumerate(_names, 1):
        for _form in _forms.split():
            MONTHS.setdefault(_form, _n)
_JALALI = {name: n for n, name in enumerate(_JALALI_MONTHS, 1)}

# Languages that write numeric dates with slashes month first (en: the US habit; an
# English page with 13/04/2024 still reads day first, by its unambiguous part).
MONTH_FIRST = frozenset({"en"})
EARLIEST_YEAR = 1990  # a page's date before the web is a date in its text, not its own
LATEST_YEAR = 2100

_DIGITS = str.maketrans("۰۱۲۳۴۵۶۷۸۹٠١٢٣٤٥٦٧٨٩０１２３４５６７８９", "0123456789" * 3)
# A word, with Arabic-script marks (مهٔ); possessive (*+): what follows a word in each pattern
# below is never a letter or a mark, so giving one back could not match, only cost time.
_WORD = r"[^\W\d_](?:[^\W\d_]|[\u064b-\u065f\u0670])*+\.?"
_TIME = re.compile(r"\s*(?:(?:at|à|a las|alle|um|às|om|o|saat|в|-)\s+|[T,]\s*)?"
                   r"(\d{1,2}):(\d{2})(?::(\d{2}))?(?:\.\d+)?\s*(am|pm|a\.m\.|p\.m\.)?"
                   r"\s*(z\b|utc\b|gmt\b|[+-]\d{2}:?\d{2}\b)?", re.I)
_ANY_DIGIT = re.compile(r"\d")
# What every written date has (a 4-digit year, or the "5/9/20" of a numeric date): a text
# without either holds none (`_DIGITS` maps digits to digits, so it may be asked before).
_MAY_HOLD_DATE = re.compile(r"\d{4}|\d[-/.]\d")
_YEAR_DIGITS = re.compile(r"\d{4}")  # what every date but a numeric one ("5/9/20") has
# An ISO date alone, with its time (hours, minutes, seconds, zone) if one follows.
_ISO_START = re.compile(r"\s*(\d{4})-(\d{2})-(\d{2})"
                        r"(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?\s*(Z|[+-]\d{2}:?\d{2})?)?\s*", re.I)
_ISO = re.compile(r"(?<!\d)(\d{4})([-/.])(\d{1,2})\2(\d{1,2})(?!\d)")
_COMPACT = re.compile(r"(?<!\d)(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})?)?(?!\d)")
_NUMERIC = re.compile(r"(?<!\d)(\d{1,2})([-/.])(\d{1,2})\2(\d{4}|\d{2})(?![\d/.-]\d)")
_CJK = re.compile(r"(\d{4})\s*[年년.]\s*(\d{1,2})\s*[月월.]\s*(\d{1,2})\s*[日일]?")
# "March 5, 2024", "Mon Nov 23, 2015", "March, 24 2016"
_NAME_DAY_YEAR = re.compile(rf"(?<!\w)({_WORD}),?\s+(\d{{1,2}})(?:st|nd|rd|th)?,?\s+(\d{{4}})(?!\d)", re.I)
# What every match of `_NAME_DAY_YEAR` holds, found without trying a word at each position of the text.
_DAY_YEAR = re.compile(r"\d(?:st|nd|rd|th)?,?\s+\d{4}(?!\d)", re.I)
# "5 March 2024", "5. März 2024", "5 de marzo de 2024", "28 Julho 2014", "5-Mar-2024"
_DAY_NAME_YEAR = re.compile(rf"(?<!\d)(\d{{1,2}})(?:st|nd|rd|th|er|º|°)?\.?(?:\s+de(?=\s)|\s*[-/])?\s*({_WORD})"
                            rf"(?:\s+del?(?=\s)|,)?\s*[-/]?\s*(\d{{4}})(?!\d)", re.I)
# "2024 March 5", "2024. március 5."
_YEAR_NAME_DAY = re.compile(rf"(?<!\d)(\d{{4}})[.,]?\s+({_WORD})\s+(\d{{1,2}})(?!\d)", re.I)
# A copyright notice's year ("© 2025", "Copyright 2025"): never the year of a date that starts with it.
_COPYRIGHT = re.compile(r"(?:©|\(c\)|copyright)\s*$", re.I)

# Relative dates: "3 days ago" and its kin, "yesterday", "today".
_UNITS = {
    "minute": ("minute minutes min mins minuto minutos minuti minuta minuten minut minuty minutę dakika "
               "минуту минуты минут мин menit دقیقه 分 分钟 분"),
    "hour": ("hour hours hr hrs heure heures hora horas ora ore stunde stunden uur godzina godziny godzin "
             "godzinę saat час часа часов jam ساعت 時間 小时 小時 시간"),
    "day": ("day days jour jours día días dia dias giorno giorni tag tagen dag dagen dzień dni gün "
            "день дня дней hari روز 日 天 일"),
    "week": ("week weeks semaine semaines semana semanas settimana settimane woche wochen weken "
             "tydzień tygodnie tygodni hafta неделю недели недель minggu هفته 週間 周 週 주"),
    "month": ("month months mois mes meses mese mesi monat monaten maand maanden miesiąc miesiące "
              "miesięcy ay месяц месяца месяцев bulan ماه ヶ月 か月 个月 個月 개월 달"),
    "year": ("year years an ans año años ano anos anno anni jahr jahren jaar jaren rok lata lat yıl "
             "год года лет tahun سال 年 년"),
}
_LETTER = "[a-zà-ÿąćęłńóśźżğışа-яё]"  # a Latin or Cyrillic letter: a word goes on (CJK words need no boundary)
_UNIT = {w: unit for unit, words in _UNITS.items() for w in words.split()}
_UNIT_WORDS = "|".join(sorted(map(re.escape, _UNIT), key=len, reverse=True))
_RELATIVE = re.compile(
    rf"(?:\b(?:il y a|hace|há|vor|sprzed)\s+)?(\d+|an?|one|un|une|uno|una|ein|einem|einer)\s*({_UNIT_WORDS})(?!{_LETTER})"
    rf"(?:\s*(?:ago|fa|geleden|temu|önce|назад|yang lalu|lalu|پیش|前|전))?", re.I)
_AGO = re.compile(r"ago|il y a|hace|há|fa\b|vor\b|geleden|temu|önce|назад|lalu|پیش|前|전", re.I)
_DAYS_BACK = {
    0: "today aujourd'hui hoy oggi heute hoje vandaag dzisiaj dziś bugün сегодня hari ini امروز 今日 今天 오늘",
    1: "yesterday hier ayer ieri gestern ontem gisteren wczoraj dün вчера kemarin دیروز 昨日 昨天 어제",
}
_DAY_WORD = {w: n for n, words in _DAYS_BACK.items() for w in words.split()}
_DAY_WORDS = re.compile(rf"(?<!{_LETTER})(?:" + "|".join(sorted(map(re.escape, _DAY_WORD), key=len, reverse=True))
                        + rf")(?!{_LETTER})", re.I)
_UNIT_DAYS = {"week": 7, "month": 30, "year": 365}


def parse_date(text: str | None, *, lang: str | None = None, day_first: bool | None = None,
               reference: date | datetime | None = None) -> str | None:
    """The first date written in `text`, as ISO 8601 ``YYYY-MM-DD`` (``THH:MM[:SS][±HH:MM]`` when a time follows).

    Args:
        text: a date as a page shows or states it: ISO, numeric, with a month
            name in one of our languages, CJK, or relative ("3 days ago").
        lang: the page's language (ISO 639-1): decides day-first or
            month-first where both parts could be the month (``en`` with slashes:
            month first; dots and dashes, and other languages: day first).
        day_first: overrides `lang` and the separator for such dates.
        reference: the date relative dates count back from (the crawl's); without
            it they give None.

    Returns:
        The date, or None where `text` holds no complete, valid date.
    """
    if not text:
        return None
    if len(text) > 500:
        text = text[:500]
    if reference is None and not _MAY_HOLD_DATE.search(text):  # most texts of a page, at a regex's cost
        return None
    month_first = (lang or "")[:2].lower() in MONTH_FIRST if day_first is None else not day_first
    return _parsed(text, month_first, day_first is not None, reference)


@functools.lru_cache(maxsize=8192)  # a page states its date in several places, a site's pages share dates
def _parsed(text: str, month_first: bool, forced: bool, reference: date | datetime | None) -> str | None:
    """`parse_date` of a text that may hold a date, with the order of a numeric date's parts decided
    (`_first_date`'s `month_first` and `forced`)."""
    if not text.isascii():
        text = text.translate(_DIGITS)
    if (m := _ISO_START.match(text)) and m.end() == len(text):  # the usual machine-readable form, quickly
        return _iso_start(m)
    if not _ANY_DIGIT.search(text):  # every written date has a number; only "yesterday" and its kin have none
        return _relative(text, reference) if reference is not None else None
    found = _first_date(text, month_first, forced)
    if found is None:
        return _relative(text, reference) if reference is not None else None
    day, end = found
    clock = _TIME.match(text, end)
    return day.isoformat() + (_clock(clock) if clock else "")


def may_hold_date(text: str) -> bool:
    """Whether `text` may hold a written date: `parse_date`'s first test, which most texts of a page
    fail (without a `reference`, `parse_date` of a text that fails it is None)."""
    return _MAY_HOLD_DATE.search(text) is not None


def _iso_start(m: re.Match) -> str | None:
    try:
        day = date(int(m[1]), int(m[2]), int(m[3]))
    except ValueError:
        return None
    if not EARLIEST_YEAR <= day.year <= LATEST_YEAR:
        return None
    if m.start(1) == 0:  # the time where `_TIME` would find it, read from the match (`_clock` of its parts)
        return day.isoformat() + (_clock_of(int(m[4]), int(m[5]), m[6], m[7]) if m[4] else "")
    clock = _TIME.match(m[0], 10) if len(m[0]) > 10 else None  # after spaces, where `_TIME` looks
    return day.isoformat() + (_clock(clock) if clock else "")


def _first_date(text: str, month_first: bool, forced: bool) -> tuple[date, int] | None:
    """The earliest complete date in `text` and where it ends.

    A numeric date whose parts could both be the month is read month first where
    `month_first`, for a date with slashes (5/9/2020: the US habit), or with any
    separator where `forced`; else day first (05.09.2020, 05-09-2020).
    """
    best: tuple[int, date, int] | None = None

    def take(start: int, end: int, y: int, m: int, d: int) -> None:
        nonlocal best
        if best is not None and start >= best[0]:
            return
        if EARLIEST_YEAR <= y <= LATEST_YEAR:
            try:
                best = (start, date(y, m, d), end)
            except ValueError:
                pass

    year = _YEAR_DIGITS.search(text) is not None  # else only a numeric date can be here
    dashed = "-" in text or "/" in text or "." in text  # what ISO and numeric dates need ("March 5, 2024" has none)
    if year and ((dashed and (m := _ISO.search(text)))
                 or ((dashed or "年" in text or "년" in text) and (m := _CJK.search(text)))):
        y, mo, d = (int(m[1]), int(m[3]), int(m[4])) if m.re is _ISO else (int(m[1]), int(m[2]), int(m[3]))
        take(m.start(), m.end(), y, mo, d)
    if year and (m := _COMPACT.search(text)) and (m[4] or m.end() - m.start() == len(text.strip())):
        take(m.start(), m.end(), int(m[1]), int(m[2]), int(m[3]))  # 20240305 alone, or with a time
    if dashed and (m := _NUMERIC.search(text)):
        a, b, y = int(m[1]), int(m[3]), int(m[4])
        y += 2000 if y < 100 else 0
        if a > 12 or (b <= 12 and not (month_first and (forced or m[2] == "/"))):
            take(m.start(), m.end(), y, b, a)
        else:
            take(m.start(), m.end(), y, a, b)
    for rx, order in ((_NAME_DAY_YEAR, "mdy"), (_DAY_NAME_YEAR, "dmy"), (_YEAR_NAME_DAY, "ymd")) if year else ():
        if best is not None and best[0] == 0:
            break  # no date starts earlier
        for m in rx.finditer(text) if rx is not _NAME_DAY_YEAR or _DAY_YEAR.search(text) else ():
            if best is not None and m.start() >= best[0]:
                break  # nor could it be taken, or a later one
            if order == "ymd" and _COPYRIGHT.search(text, max(0, m.start() - 12), m.start()):
                continue  # "© 2025 March 3 people like this"
            parts = dict(zip(order, (m[1], m[2], m[3])))
            month = _month(parts["m"])
            if month is not None:
                month, jalali = month
                y, d = int(parts["y"]), int(parts["d"])
                if jalali:
                    y, month, d = _jalali_to_gregorian(y, month, d)
                take(m.start(), m.end(), y, month, d)
                break
    return (best[1], best[2]) if best else None


def _month(word: str) -> tuple[int, bool] | None:
    """The month a name stands for, and whether it is a Solar Hijri one."""
    word = word.lower().rstrip(".")
    if word in MONTHS:
        return MONTHS[word], False
    if word in _JALALI:
        return _JALALI[word], True
    return None


def _jalali_to_gregorian(y: int, m: int, d: int) -> tuple[int, int, int]:
    """A Solar Hijri date in the Gregorian calendar (the 33-year arithmetic rule, as jdatetime's)."""
    if not (1300 <= y <= 1500 and 1 <= m <= 12 and 1 <= d <= 31):
        return 0, 1, 1  # not a date of the web: `take` drops it
    jy = y + 1595
    days = (-355668 + 365 * jy + jy // 33 * 8 + (jy % 33 + 3) // 4 + d
            + ((m - 1) * 31 if m < 7 else (m - 7) * 30 + 186))
    g = date.fromordinal(days - 365)
    return g.year, g.month, g.day


def _clock(m: re.Match) -> str:
    """``THH:MM[:SS][±HH:MM]`` from a time match, or "" when it is not a time of day."""
    h, mi = int(m[1]), int(m[2])
    ampm = (m[4] or "").lower().replace(".", "")
    if ampm:
        if not 1 <= h <= 12:
            return ""
        h = h % 12 + (12 if ampm == "pm" else 0)
    return _clock_of(h, mi, m[3], m[5])


def _clock_of(h: int, mi: int, seconds: str | None, zone: str | None) -> str:
    """`_clock` of a 24-hour time: its hours, minutes, and the seconds and zone as written (or None)."""
    if h > 23 or mi > 59:
        return ""
    out = f"T{h:02d}:{mi:02d}" + (f":{int(seconds):02d}" if seconds else "")
    zone = (zone or "").lower()
    if zone in ("z", "utc", "gmt"):
        out += "+00:00"
    elif zone:
        out += f"{zone[:3]}:{zone[-2:]}"
    return out


def _relative(text: str, reference: date | datetime) -> str | None:
    """A relative date ("3 days ago", "yesterday") counted back from `reference`."""
    ref = reference.date() if isinstance(reference, datetime) else reference
    if (m := _RELATIVE.search(text)) and _AGO.search(text):
        n = int(m[1]) if m[1].isdigit() else 1
        unit = _UNIT[m[2].lower()] if m[2].lower() in _UNIT else _UNIT.get(m[2])
        back = n * _UNIT_DAYS.get(unit, 1) if unit in ("day", "week", "month", "year") else 0
        if back > (ref - date(EARLIEST_YEAR, 1, 1)).days:  # before any web page ("99999 years ago")
            return None
        return (ref - timedelta(days=back)).isoformat()
    if m := _DAY_WORDS.search(text):
        return (ref - timedelta(days=_DAY_WORD[m[0].lower()])).isoformat()
    return None
