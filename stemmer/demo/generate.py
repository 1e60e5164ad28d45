"""Generate the embedded demo site: "The Larkspur Ledger", a fictional town newspaper.

The site is written as ``wget -r`` would leave it on disk, under
``stemmer/demo/site/demo.stemmer.test/``, together with ``stemmer/demo/gold.jsonl``
(one line per article page: id, exact title, body text one block per line).

Beside it, a second site of another host: "Corran Valley Supply", a small shop
(``stemmer/demo/shop/shop.stemmer.test/``: product pages, deal pages of another
template, category pages), with ``stemmer/demo/shop_gold.jsonl``: per product or
deal page its price, SKU, spec list, tags, manual and image address, the truth of
``benchmarks/fields.py``.  It has its own random generator, so the newspaper
comes out the same with or without it.

All names, places and texts are invented. The output is deterministic
(``random.Random(7)``, no set iteration, fixed ordering); rerun with::

    python stemmer/demo/generate.py

Standard library only.
"""

from __future__ import annotations

import datetime as _dt
import html
import json
import random
import re
import shutil
from pathlib import Path

HOST = "demo.stemmer.test"
SITE_NAME = "The Larkspur Ledger"
HERE = Path(__file__).resolve().parent
SITE_DIR = HERE / "site" / HOST
GOLD_PATH = HERE / "gold.jsonl"
SHOP_HOST = "shop.stemmer.test"
SHOP_NAME = "Corran Valley Supply"
SHOP_DIR = HERE / "shop" / SHOP_HOST
SHOP_GOLD_PATH = HERE / "shop_gold.jsonl"

# ---------------------------------------------------------------------------
# Word lists and fixed content (all invented)
# ---------------------------------------------------------------------------

# (title, subject phrase, place, organisation, category)
NEWS_TOPICS = [
    ("Larkspur Council Approves New Footbridge Over Mill Creek",
     "the new footbridge", "Mill Creek", "the Town Council", "town-hall"),
    ("Library Extends Weekend Hours After Record Summer Attendance",
     "the extended library hours", "the Larkspur Public Library", "the library board", "community"),
    ("Volunteers Plant Four Hundred Oaks Along Route 9",
     "the tree planting effort", "Route 9", "the Larkspur Tree Society", "environment"),
    ("Harvest Fair Returns to Juniper Green With Expanded Market",
     "the harvest fair", "Juniper Green", "the Harvest Fair Committee", "community"),
    ("School Board Weighs Later Start Times for High School",
     "the proposed later start time", "Larkspur High School", "the School Board", "education"),
    ("Water Tower Repainting to Close Elm Street for Two Weeks",
     "the water tower repainting", "Elm Street", "the Department of Public Works", "town-hall"),
    ("Local Bakery Wins Regional Award for Sourdough Loaf",
     "the award-winning sourdough", "Hartwell's Bakery", "the Valley Bakers Guild", "business"),
    ("Storm Leaves Hundreds Without Power in East Larkspur",
     "the power outage", "East Larkspur", "the Larkspur Electric Cooperative", "weather"),
    ("Historic Granary Set to Reopen as Community Arts Space",
     "the granary reopening", "the old granary on Depot Road", "the Larkspur Arts Council", "arts"),
    ("Larkspur Robotics Team Heads to State Finals",
     "the robotics team's run", "Larkspur High School", "the Booster Club", "education"),
    ("Town Pool Renovation Runs Over Budget, Officials Say",
     "the pool renovation", "the Municipal Pool", "the Parks Commission", "town-hall"),
    ("New Bus Route Links Larkspur With Fenwick Station",
     "the new bus route", "Fenwick Station", "the Regional Transit Authority", "transport"),
    ("Beekeepers Report Strong Honey Season Despite Late Frost",
     "the honey season", "the Orchard Hill apiaries", "the Larkspur Beekeepers Association", "business"),
    ("Fire Department Welcomes Three New Volunteer Firefighters",
     "the new volunteer crew", "Station No. 2", "the Larkspur Fire Department", "community"),
    ("Residents Debate Parking Meters on Main Street",
     "the parking meter proposal", "Main Street", "the Main Street Merchants Association", "business"),
    ("Larkspur Marathon Raises Record Sum for Children's Hospital",
     "the marathon fundraiser", "Riverside Park", "the marathon organizing committee", "sports"),
    ("Ice Rink Opens Early as Temperatures Drop Sharply",
     "the early rink opening", "Kettle Pond", "the Parks Commission", "sports"),
    ("Farmers Market Moves Indoors to the Old Armory",
     "the indoor farmers market", "the Old Armory", "the Farmers Market Cooperative", "business"),
    ("Town Hall Clock Stops After Ninety Years of Service",
     "the stopped town hall clock", "Town Hall", "the Historical Society", "history"),
    ("Community Garden Expands to Include Twenty New Plots",
     "the community garden expansion", "Linden Lane", "the Garden Club", "environment"),
    ("Larkspur High Drama Club Stages Original Musical",
     "the original musical", "the Larkspur High auditorium", "the Drama Club", "arts"),
    ("Recycling Pickup Schedule Changes Starting Next Month",
     "the new recycling schedule", "the transfer station", "the Department of Public Works", "town-hall"),
    ("Wildflower Meadow Project Earns State Conservation Grant",
     "the wildflower meadow", "Sparrow Hill", "the Conservation Commission", "environment"),
    ("Mayor Outlines Plans for Riverside Park Upgrade",
     "the Riverside Park upgrade", "Riverside Park", "the Mayor's office", "town-hall"),
]

# (title, subject, place, organisation, dek)
OPINION_TOPICS = [
    ("Why Our Town Needs a Real Bike Lane Network",
     "a connected network of bike lanes", "Main Street", "the Planning Board",
     "Painted lines that vanish at every intersection are not a plan. Here is what one could look like."),
    ("In Praise of the Humble Village Post Office",
     "the village post office", "the post office on Church Street", "the Postal Service",
     "It is where news travels fastest in Larkspur, and it deserves more than a shrug."),
    ("The Quiet Cost of Closing Our Rural Schools",
     "our rural schools", "the Cedar Hollow schoolhouse", "the School Board",
     "Consolidation looks tidy on paper. The bus rides and empty hamlets tell another story."),
    ("Let the Granary Be Messy, Loud and Alive",
     "the granary", "the old granary on Depot Road", "the Arts Council",
     "An arts space that never annoys anyone is an arts space nobody visits."),
    ("What the Storm Taught Us About Our Neighbors",
     "looking after one another", "East Larkspur", "the Fire Department",
     "Three dark nights in October revealed a town that still knows how to show up."),
    ("Parking Meters Are Not the Enemy of Main Street",
     "parking on Main Street", "Main Street", "the Merchants Association",
     "Free parking is never free. Someone pays for it, and lately it has been the shops."),
    ("A Modest Proposal for Fewer Public Meetings",
     "our public meetings", "Town Hall", "the Town Council",
     "Four-hour sessions on a Tuesday night keep out exactly the people we need to hear from."),
    ("Our Libraries Are the Last Truly Free Places",
     "the public library", "the Larkspur Public Library", "the library board",
     "No ticket, no purchase, no questions: why that matters more every year."),
    ("Stop Mowing Everything and Let Larkspur Grow Wild",
     "a wilder Larkspur", "Sparrow Hill", "the Conservation Commission",
     "Our obsession with short grass is costing us birds, bees and a good deal of money."),
    ("Notes From Thirty Years of Covering Town Hall",
     "local government", "Town Hall", "the Town Council",
     "A retiring reporter looks back on budgets, feuds and the occasional small miracle."),
]

REPORTERS = ["Maren Holloway", "Tobias Quill", "Priya Natarajan",
             "Dale Okonkwo", "Hattie Brennan", "Sam Ferreira"]

# columnist name, bio; opinion columns are assigned round-robin-ish below
COLUMNISTS = [
    ("Clara Penhallow",
     "Clara Penhallow taught geography at Larkspur High for 22 years and now writes about "
     "how the town works, and how it could work better."),
    ("Wendell Ashgrove",
     "Wendell Ashgrove runs a hardware store on Main Street and chairs nothing at all, "
     "which he considers his greatest civic achievement."),
    ("Ines Calloway",
     "Ines Calloway is a landscape ecologist and a member of the Sparrow Hill Friends. "
     "Her column appears every other Thursday."),
    ("Bartholomew Reyes",
     "Bartholomew Reyes covered Larkspur's town government for the Ledger from 1994 until "
     "his retirement this spring."),
]
# which columnist writes each opinion piece (index into COLUMNISTS)
OPINION_AUTHORS = [0, 1, 0, 2, 3, 1, 3, 0, 2, 3]

FIRST_NAMES = ["Agnes", "Ruben", "Delia", "Marcus", "Odette", "Felix", "Imogen", "Kwame",
               "Lorna", "Emil", "Bettina", "Hiro", "Rosalie", "Anders", "Yolanda", "Cyrus",
               "Mabel", "Teodor", "Jun", "Fiona", "Osric", "Leticia", "Nadim", "Greta"]
LAST_NAMES = ["Albright", "Whitcombe", "Farrow", "Delacroix-Hunt", "Mbeki", "Sørensen",
              "Tillman", "Quarrie", "Voss", "Halvorsen", "Pinkerton", "Oduya", "Castellano",
              "Birchall", "Kowalczyk", "Ainsworth", "Lindgren", "Marchetti", "Obi", "Yarrow"]
ROLES = ["chair of the planning committee", "a retired schoolteacher", "the town engineer",
         "owner of the Copper Kettle café", "a member of the Town Council",
         "president of the Historical Society", "a parent of two", "the town treasurer",
         "a volunteer coordinator", "a longtime resident of Linden Lane",
         "director of parks and recreation", "a local contractor"]
VENUES = ["Town Hall", "the library community room", "the Grange hall",
          "the Larkspur High cafeteria", "the senior center"]
FUNDS = ["a state infrastructure grant", "the town's capital reserve fund",
         "private donations", "a county matching program", "the Larkspur Community Foundation"]
TOWNS = ["Fenwick", "Ashby Falls", "North Corran", "Little Tamsin", "Bexley Crossing", "Orrin"]
STREETS = ["Main Street", "Depot Road", "Church Street", "Linden Lane", "Mill Road", "Elm Street"]
CAFES = ["the Copper Kettle", "Dot's Diner", "the Mill Creek Grill", "Beanstalk Coffee"]
PHOTOGRAPHERS = ["Lena Marsh", "Otto Keel", "Ruth Abernathy"]
WEEKDAYS = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December"]
SEASONS = ["spring", "summer", "autumn", "winter"]
TIMES = ["6 p.m.", "6:30 p.m.", "7 p.m.", "9 a.m.", "10 a.m."]

NEWS_SENTENCES = [
    "{Subject} was discussed at length during {weekday}'s meeting at {venue}.",
    "Officials said {subject} had been on the agenda since last {season}.",
    "“We have waited a long time for this,” said {person}, {role}.",
    "About {num} residents turned out for the session, according to {org}.",
    "The estimated cost stands at ${money}, most of it covered by {fund}.",
    "{person}, {role}, said the timeline remained “ambitious but realistic.”",
    "Not everyone is convinced: {person}, who lives near {place}, worried about noise and traffic.",
    "A public comment period will remain open until {month} {day}.",
    "Members of {org} voted {votes} to move ahead.",
    "Supporters say {subject} will benefit families across the whole valley.",
    "Critics have questioned whether the town can afford {subject} at a time of rising costs.",
    "Work is expected to begin in {month} and wrap up by the end of {month2}.",
    "A similar effort in {town} took nearly {years} years to complete.",
    "Residents can find more details on the town website or at the clerk's office on {street}.",
    "The last comparable project in Larkspur dates back to {year}.",
    "Organizers said turnout exceeded expectations by roughly {pct} percent.",
    "{person} said the idea first came up among neighbors over coffee at {cafe}.",
    "{Org} plans to publish a full report in {month}.",
    "Questions about parking and accessibility dominated the discussion.",
    "Several speakers praised the volunteers who had done much of the early planning.",
    "“It is not perfect, but it is a start,” {person} told the Ledger.",
    "Town records show {num} similar requests were filed over the past decade.",
    "The decision follows months of informal conversations between {org} and local businesses.",
    "A second hearing is scheduled for {weekday}, {month} {day}, at {time}.",
    "Students from Larkspur High School helped collect signatures in support.",
    "According to {person}, {role}, the main challenge is keeping the work on schedule through the winter.",
    "The plan drew {num} written comments, most of them favorable.",
    "Weather permitting, the first phase could be finished within {weeks} weeks.",
    "Shop owners along {street} said they welcomed the attention.",
    "The town's insurance carrier must still sign off before anything moves forward.",
    "Money from {fund} cannot be spent until the spring, officials cautioned.",
    "{Subject} has become a local talking point, from the diner counter to the school pickup line.",
    "In a brief statement, {org} thanked residents for their patience.",
    "Longtime residents recall a similar debate in {year}, which ended without agreement.",
    "Volunteers will meet at {place} at {time} on {weekday} to help with preparations.",
    "The county has offered technical assistance but no additional funding.",
    "“We want everyone to feel this belongs to them,” said {person}.",
    "Anyone with questions may call the town clerk at 555-{phone}.",
    "Traffic on {street} may be diverted during working hours.",
    "A survey by {org} found that {pct} percent of respondents supported the idea.",
    "Officials stressed that no final decisions had been made.",
    "Local historians note that {place} once served as a gathering point for the whole valley.",
    "Early estimates suggest about {num} people could benefit each year.",
    "The proposal was first floated in {month} {year} by a small group of parents.",
    "Some residents asked whether {subject} could be paired with better lighting and sidewalks.",
    "The project manager, {person}, said crews would work mostly on weekdays.",
    "Funding for upkeep over the next {years} years has not yet been identified.",
    "“Nobody here likes surprises, so we are trying to explain every step,” said {person}, {role}.",
    "For now, {place} remains open to the public as usual.",
    "The Ledger reached out to {org} for further comment on {weekday}.",
]

NEWS_LEDES = [
    "{Subject} moved a step closer this week after a long evening of debate at {venue}.",
    "Residents got their first detailed look at {subject} on {weekday}.",
    "After months of discussion, {subject} is finally taking shape.",
    "{Subject} drew a crowd of about {num} people to {venue} on {weekday} evening.",
    "It has been a busy few weeks for {org}, and {subject} is the reason.",
    "{Subject} is the talk of {place} this week.",
    "The story of {subject} took a new turn on {weekday}, {org} confirmed.",
]

OPINION_SENTENCES = [
    "I have lived in Larkspur for {years} years, and I have rarely seen {subject} stir up so much feeling.",
    "Let me be clear: {subject} is not a luxury.",
    "Every {weekday} morning I walk past {place} and wonder what we are waiting for.",
    "We tell ourselves that change is expensive, but standing still costs more.",
    "My neighbor {first} put it best over the fence last {season}: “Nobody asked us.”",
    "There is a version of this town that works for everyone, and it is closer than we think.",
    "The numbers are not complicated; {pct} percent of us already agree.",
    "Consider what happened in {town} when they tried something similar.",
    "Of course, there are reasonable objections.",
    "Some will say the timing is wrong, but the timing is always wrong.",
    "I am not asking for miracles, only for a little imagination.",
    "When I was a child, {place} was where everyone went on summer evenings.",
    "{Org} has done its homework; now it needs the courage to act.",
    "It is easy to complain at meetings and harder to show up with a plan.",
    "We owe it to the next generation to get {subject} right.",
    "Small towns do not survive on nostalgia alone.",
    "I spoke with {person}, {role}, who has spent years thinking about this.",
    "What would it cost us to try? Less than we fear, I suspect.",
    "Larkspur has always been at its best when it stops waiting for permission.",
    "Perhaps I am wrong about the details, but I do not think I am wrong about the direction.",
    "Read the minutes from {year} and you will find the same arguments we hear today.",
    "The people who built {place} did not have a subcommittee for every decision.",
    "Let us argue about the details, but let us argue in good faith.",
    "Nobody moves to a town like ours for the efficiency.",
    "If you disagree, write to us; that is what this page is for.",
    "The question is not whether, but how soon.",
    "A town is not a spreadsheet, though some days it is run like one.",
    "Every delay sends the same message to young families: not here, not yet.",
    "I have heard from {num} readers since my last column, and most of them agree.",
    "Yes, it will be inconvenient for a while, as most good things are.",
    "There is nothing radical about wanting {subject} to work for everyone.",
    "We can do better than shrugging and saying it has always been this way.",
    "Imagine {place} on a Saturday in {month}, full of people with somewhere to be.",
    "Maybe the answer is smaller than we think: a bench, a sign, a bit of paint.",
    "The money exists; what is missing is a sense of urgency.",
    "I will be at the next meeting on {weekday}, and I hope you will be too.",
    "The worst outcome is not failure but another decade of talk.",
    "{Org} meets again in {month}, and it would do well to remember who it works for.",
    "Ask anyone at {cafe} and you will hear a dozen better ideas before your coffee cools.",
    "I once believed the opposite, and I was wrong.",
]

NEWS_SUBHEADS = ["What happens next", "A long road", "Residents weigh in", "By the numbers",
                 "Looking ahead", "How we got here", "Concerns remain", "The cost question",
                 "A community effort", "Timeline"]
OPINION_SUBHEADS = ["The case against waiting", "What we stand to lose", "A better way",
                    "Why it matters", "The objections", "Where we go from here",
                    "A word to the council"]

NEWS_LIST_ITEMS = [
    "{num} volunteers signed up for the first weekend",
    "${money} in support from {fund}",
    "{weeks} weeks of planned work",
    "{num} written public comments received",
    "{pct} percent of survey respondents in favor",
    "{years} years since the last major repairs",
    "{weekday}: information session at {venue}, {time}",
    "Next council vote expected in {month}",
    "Detours posted along {street}",
    "Drop-in questions answered at {cafe} every {weekday} morning",
]
OPINION_LIST_ITEMS = [
    "Publish the full budget online, in plain language",
    "Hold at least one meeting a month in the early evening",
    "Ask the students at Larkspur High what they think",
    "Put benches where people actually sit",
    "Count bicycles and pedestrians, not only cars",
    "Answer every letter within a week",
    "Open the school gym on winter weekends",
    "Plant trees before pouring concrete",
    "Try it for one summer and then decide",
    "Invite {town} to tell us what went wrong there",
]
QUOTES = [
    "This town has never been short of opinions. What it needs now is follow-through.",
    "If we get this right, people will wonder why it ever took so long.",
    "Every generation gets to leave one thing better than it found it.",
    "We are not building a monument. We are fixing something people use every day.",
    "I have been to a hundred meetings about this, and this was the first one that ended with a plan.",
    "You cannot put a price on a place where neighbors run into each other.",
    "Nobody is going to do it for us, so we might as well start on Saturday.",
    "The kids understood it before the adults did.",
]
CAPTIONS = [
    "A view of {place} earlier this month.",
    "{person} at {place} on {weekday}.",
    "Volunteers gather near {place} before the meeting.",
    "Residents listen during {weekday}'s session at {venue}.",
    "{Place} in the early morning light.",
    "An architect's sketch presented to {org}.",
]

ABOUT_PARAS = [
    "The Larkspur Ledger has covered the town of Larkspur and the upper Corran valley since 1911, "
    "when it was printed on a hand-fed press behind the feed store on Depot Road.",
    "Today a newsroom of six reporters, three photographers and a rotating cast of columnists "
    "publishes local news every weekday and a print edition every Thursday.",
    "We are owned by the Larkspur Community Media Trust, a nonprofit with no shareholders. "
    "Our budget comes from subscribers, local advertisers and small donations.",
    "Corrections are published on the page where the error appeared. "
    "If you spot a mistake, please write to the editor.",
]

SECTIONS = [("Home", "/index.html"), ("News", "/news/index.html"),
            ("Opinion", "/opinion/index.html"), ("Sports", "/sports/index.html"),
            ("Arts &amp; Culture", "/arts/index.html"), ("Events", "/events/index.html")]


# ---------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------

def esc(s: str) -> str:
    return html.escape(s, quote=False)


def attr(s: str) -> str:
    return html.escape(s, quote=True)


def slugify(s: str) -> str:
    s = s.lower().replace("'", "")
    return re.sub(r"[^a-z0-9]+", "-", s).strip("-")


def cap(s: str) -> str:
    return s[:1].upper() + s[1:]


def fmt_date(d: _dt.datetime) -> str:
    return f"{MONTHS[d.month - 1]} {d.day}, {d.year}"


class Filler:
    """Fills sentence templates with random (seeded) values."""

    def __init__(self, rng: random.Random, subject: str, place: str, org: str):
        self.rng, self.subject, self.place, self.org = rng, subject, place, org

    def person(self) -> str:
        return f"{self.rng.choice(FIRST_NAMES)} {self.rng.choice(LAST_NAMES)}"

    def fill(self, template: str) -> str:
        r = self.rng
        y = r.randint(0, 1)
        votes = r.choice(["5-2", "4-3", "6-1", "7-0", "5-0"])
        vals = {
            "subject": self.subject, "Subject": cap(self.subject),
            "place": self.place, "Place": cap(self.place),
            "org": self.org, "Org": cap(self.org),
            "person": self.person(), "first": r.choice(FIRST_NAMES),
            "role": r.choice(ROLES), "venue": r.choice(VENUES), "fund": r.choice(FUNDS),
            "town": r.choice(TOWNS), "street": r.choice(STREETS), "cafe": r.choice(CAFES),
            "weekday": r.choice(WEEKDAYS), "month": r.choice(MONTHS), "month2": r.choice(MONTHS),
            "season": r.choice(SEASONS), "time": r.choice(TIMES),
            "num": str(r.randint(12, 480)), "pct": str(r.randint(18, 86)),
            "money": f"{r.randint(12, 940)},{r.randint(0, 9)}00",
            "years": str(r.randint(3, 40)), "weeks": str(r.randint(2, 16)),
            "year": str(r.choice([1958, 1964, 1971, 1979, 1986, 1993, 2002, 2011]) + y),
            "day": str(r.randint(1, 28)), "votes": votes,
            "phone": f"{r.randint(100, 999)}{r.randint(0, 9)}",
        }
        return template.format(**vals).replace("m..", "m.")  # "7 p.m." at sentence end


class Sentences:
    """Draws templates without repetition within one article."""

    def __init__(self, rng: random.Random, pool: list[str], filler: Filler):
        self.rng, self.pool, self.filler = rng, pool, filler
        self.queue: list[str] = []

    def next(self) -> str:
        if not self.queue:
            self.queue = list(self.pool)
            self.rng.shuffle(self.queue)
        return self.filler.fill(self.queue.pop())

    def paragraph(self, lo: int = 2, hi: int = 4, lede: list[str] | None = None) -> str:
        n = self.rng.randint(lo, hi)
        first = [self.filler.fill(self.rng.choice(lede))] if lede else []
        return " ".join(first + [self.next() for _ in range(n - len(first))])


def inline_markup(rng: random.Random, text: str, place: str) -> str:
    """Escape a paragraph and sometimes add a link or emphasis (visible text unchanged)."""
    h = esc(text)
    roll = rng.random()
    if roll < 0.25 and esc(place) in h:
        p = esc(place)
        h = h.replace(p, f'<a href="/tag/{slugify(place)}.html">{p}</a>', 1)
    elif roll < 0.40:
        words = h.split(" ")
        if len(words) > 8:
            i = rng.randint(1, len(words) - 4)
            j = i + rng.randint(1, 3)
            span = words[i:j]
            if not any(c in w for w in span for c in "“”<$") and \
                    not any(re.search(r"[^\w']", w) for w in span[:-1]):
                tag = rng.choice(["em", "strong"])
                words[i] = f"<{tag}>" + words[i]
                words[j - 1] = words[j - 1] + f"</{tag}>"
                h = " ".join(words)
    return h


def build_body(rng: random.Random, pool: list[str], subheads: list[str],
               list_items: list[str], filler: Filler, post_id: int, date: _dt.datetime,
               opinion: bool) -> tuple[list[str], list[str]]:
    """Return (html_lines, gold_lines) for a varied article body."""
    sents = Sentences(rng, pool, filler)
    n_par = rng.randint(3, 12)
    has_h2 = rng.random() < 0.5 and n_par >= 4
    has_ul = rng.random() < 0.4
    has_quote = rng.random() < 0.4
    has_fig = rng.random() < 0.45
    # positions (after paragraph k) of the extra blocks
    extras: list[tuple[int, str]] = []
    if has_fig:
        extras.append((rng.randint(0, min(2, n_par - 1)), "fig"))
    if has_h2:
        extras.append((rng.randint(1, n_par - 2), "h2"))  # never the last block
    if has_ul:
        extras.append((rng.randint(1, n_par - 1), "ul"))
    if has_quote:
        extras.append((rng.randint(1, n_par - 1), "quote"))
    html_lines: list[str] = []
    gold: list[str] = []
    subs = rng.sample(subheads, k=len(subheads))
    for k in range(n_par):
        text = sents.paragraph(lede=NEWS_LEDES if (k == 0 and not opinion) else None)
        html_lines.append(f"<p>{inline_markup(rng, text, filler.place)}</p>")
        gold.append(text)
        for pos, kind in extras:
            if pos != k:
                continue
            if kind == "h2":
                t = subs.pop()
                cls = "wp-block-heading" if not opinion else "column-subhead"
                html_lines.append(f'<h2 class="{cls}" id="h-{slugify(t)}">{esc(t)}</h2>')
                gold.append(t)
            elif kind == "ul":
                items = [filler.fill(t) for t in rng.sample(list_items, k=rng.randint(3, 5))]
                if opinion:
                    intro = "Here is where I would start:"
                else:
                    intro = rng.choice(["Key details:", "At a glance:", "The plan includes:"])
                html_lines.append(f"<p>{esc(intro)}</p>")
                gold.append(intro)
                html_lines.append('<ul class="wp-block-list">')
                for it in items:
                    html_lines.append(f"  <li>{esc(it)}</li>")
                    gold.append(it)
                html_lines.append("</ul>")
            elif kind == "quote":
                q = "“" + rng.choice(QUOTES) + "”"
                html_lines.append(f'<blockquote class="wp-block-quote"><p>{esc(q)}</p></blockquote>')
                gold.append(q)
            elif kind == "fig":
                cap_text = filler.fill(rng.choice(CAPTIONS))
                credit = f"Photo: {rng.choice(PHOTOGRAPHERS)} / {SITE_NAME}"
                img = (f"/media/{date.year}/{date.month:02d}/img-{post_id}-"
                       f"{rng.randint(1, 9)}.jpg")
                html_lines.append('<figure class="wp-block-image size-large">')
                html_lines.append(f'  <img src="{img}" alt="{attr(cap_text)}" width="1024" '
                                  f'height="{rng.choice([576, 683, 768])}" loading="lazy">')
                html_lines.append(f"  <figcaption>{esc(cap_text)} <span class=\"credit\">"
                                  f"{esc(credit)}</span></figcaption>")
                html_lines.append("</figure>")
                gold.append(f"{cap_text} {credit}")
    return html_lines, gold


# ---------------------------------------------------------------------------
# Page chrome
# ---------------------------------------------------------------------------

def head(title: str, canonical: str, description: str, extra: str = "") -> str:
    return f"""<!DOCTYPE html>
<html lang="en-US">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{esc(title)}</title>
<meta name="description" content="{attr(description)}">
<link rel="canonical" href="https://{HOST}{canonical}">
<link rel="stylesheet" href="/assets/css/ledger.css?ver=3.2.1">
<script src="/assets/js/ledger.js?ver=3.2.1" defer></script>
{extra}</head>
"""


def site_header(active: str) -> str:
    items = []
    for label, href in SECTIONS:
        cur = ' class="current-menu-item" aria-current="page"' if label == active else ""
        items.append(f'      <li{cur}><a href="{href}">{label}</a></li>')
    nav = "\n".join(items)
    return f"""<a class="skip-link screen-reader-text" href="#content">Skip to content</a>
<header id="masthead" class="site-header">
  <div class="site-branding">
    <a class="site-logo" href="/index.html" rel="home">{SITE_NAME}</a>
    <p class="site-tagline">News for the upper Corran valley since 1911</p>
  </div>
  <nav id="site-navigation" class="main-navigation" aria-label="Sections">
    <ul class="menu">
{nav}
    </ul>
  </nav>
  <form class="search-form" role="search" action="/search/"><input type="search" name="s" placeholder="Search the Ledger"><button type="submit">Search</button></form>
</header>
"""


def site_footer() -> str:
    return f"""<footer id="colophon" class="site-footer">
  <nav class="footer-nav" aria-label="Footer">
    <ul>
      <li><a href="/about.html">About us</a></li>
      <li><a href="/contact.html">Contact</a></li>
      <li><a href="/advertise.html">Advertise</a></li>
      <li><a href="/privacy.html">Privacy policy</a></li>
    </ul>
  </nav>
  <p class="copyright">© 2024 {SITE_NAME}. Published by the Larkspur Community Media Trust. All rights reserved.</p>
</footer>
</body>
</html>
"""


def sidebar(most_read: list[dict]) -> str:
    lis = "\n".join(f'      <li><a href="{a["href"]}">{esc(a["title"])}</a></li>' for a in most_read)
    return f"""<aside id="secondary" class="widget-area sidebar">
  <section id="most-read-2" class="widget widget-most-read">
    <h3 class="widget-title">Most read</h3>
    <ol>
{lis}
    </ol>
  </section>
  <section id="newsletter-3" class="widget widget-newsletter">
    <h3 class="widget-title">The Ledger in your inbox</h3>
    <p>Local news, every weekday morning. Free, and easy to cancel.</p>
    <form action="/subscribe/" method="post"><input type="email" name="email" placeholder="you@example.com"><button type="submit">Sign up</button></form>
  </section>
  <div class="ad-slot ad-sidebar" data-slot="sidebar-1">Advertisement</div>
</aside>
"""


def share_box(href: str, title: str) -> str:
    url = f"https://{HOST}{href}"
    q = slugify(title)
    return f"""    <div class="share-box">
      <h3 class="share-title">Share this</h3>
      <ul class="share-links">
        <li><a class="share-email" href="mailto:?subject={q}&amp;body={attr(url)}">Email</a></li>
        <li><a class="share-print" href="{href}?print=1" rel="nofollow">Print</a></li>
        <li><a class="share-copy" href="{attr(url)}" data-copy="{attr(url)}">Copy link</a></li>
      </ul>
    </div>
"""


def write(path: str, text: str, root: Path = SITE_DIR) -> None:
    p = root / path
    p.parent.mkdir(parents=True, exist_ok=True)
    with open(p, "w", encoding="utf-8", newline="\n") as f:
        f.write(text)


# ---------------------------------------------------------------------------
# Build
# ---------------------------------------------------------------------------

def main() -> None:
    rng = random.Random(7)
    if SITE_DIR.exists():
        shutil.rmtree(SITE_DIR)

    # --- articles metadata ------------------------------------------------
    post_ids = rng.sample(range(1100, 9800), k=len(NEWS_TOPICS) + len(OPINION_TOPICS))
    start = _dt.datetime(2023, 9, 4, 7, 0)
    news: list[dict] = []
    offsets = sorted(rng.sample(range(0, 270), k=len(NEWS_TOPICS)))
    order = list(range(len(NEWS_TOPICS)))
    rng.shuffle(order)
    for k, (ti, off) in enumerate(zip(order, offsets)):
        title, subject, place, org, cat = NEWS_TOPICS[ti]
        date = start + _dt.timedelta(days=off, hours=rng.randint(0, 11), minutes=rng.randint(0, 59))
        path = f"news/{date.year}/{date.month:02d}/{slugify(title)}.html"
        news.append(dict(kind="news", title=title, subject=subject, place=place, org=org,
                         cat=cat, date=date, path=path, href="/" + path, id=post_ids[k],
                         author=rng.choice(REPORTERS)))
    opinion: list[dict] = []
    offsets = sorted(rng.sample(range(0, 270), k=len(OPINION_TOPICS)))
    for k, (topic, off) in enumerate(zip(OPINION_TOPICS, offsets)):
        title, subject, place, org, dek = topic
        date = start + _dt.timedelta(days=off, hours=rng.randint(0, 11), minutes=rng.randint(0, 59))
        path = f"opinion/{slugify(title)}.html"
        opinion.append(dict(kind="opinion", title=title, subject=subject, place=place, org=org,
                            dek=dek, date=date, path=path, href="/" + path,
                            id=post_ids[len(NEWS_TOPICS) + k],
                            columnist=OPINION_AUTHORS[k]))

    all_titles = [a["title"] for a in news + opinion]
    assert len(set(all_titles)) == len(all_titles)
    for t in all_titles:
        assert 4 <= len(t.split()) <= 10, t

    # "Most read" changes with time: three variants, chosen by page date
    everything = news + opinion
    most_read_variants = [rng.sample(everything, k=5) for _ in range(3)]

    def most_read_for(date: _dt.datetime | None) -> list[dict]:
        if date is None:
            return most_read_variants[0]
        return most_read_variants[(date.month + date.year) % 3]

    gold: list[dict] = []

    # --- bodies ---------------------------------------------------------------
    for a in news:
        filler = Filler(rng, a["subject"], a["place"], a["org"])
        a["body_html"], a["gold"] = build_body(rng, NEWS_SENTENCES, NEWS_SUBHEADS, NEWS_LIST_ITEMS,
                                               filler, a["id"], a["date"], opinion=False)
        a["teaser"] = re.split(r"(?<=[.”])\s", a["gold"][0])[0]
    for a in opinion:
        filler = Filler(rng, a["subject"], a["place"], a["org"])
        a["body_html"], a["gold"] = build_body(rng, OPINION_SENTENCES, OPINION_SUBHEADS,
                                               OPINION_LIST_ITEMS, filler, a["id"], a["date"],
                                               opinion=True)
        a["teaser"] = a["dek"]

    # --- news article pages ---------------------------------------------------
    for a in news:
        d = a["date"]
        others = [b for b in news if b is not a]
        related = rng.sample(others, k=3)
        n_comments = rng.choice([0, 1, 2, 3, 5, 8, 12, 17, 23, 41])
        comments = "No comments yet" if n_comments == 0 else (
            "1 comment" if n_comments == 1 else f"{n_comments} comments")
        ld = json.dumps({"@context": "https://schema.org", "@type": "NewsArticle",
                         "headline": a["title"], "datePublished": d.isoformat(),
                         "author": {"@type": "Person", "name": a["author"]}},
                        ensure_ascii=False)
        extra = (f'<meta property="og:title" content="{attr(a["title"])}">\n'
                 f'<meta property="og:type" content="article">\n'
                 f'<script type="application/ld+json">{ld}</script>\n')
        rel = "\n".join(f'        <li><a href="{b["href"]}">{esc(b["title"])}</a></li>' for b in related)
        body = "\n".join("      " + line for line in a["body_html"])
        page = head(f'{a["title"]} – {SITE_NAME}', a["href"], a["teaser"], extra)
        page += (f'<body class="post-template-default single single-post postid-{a["id"]} '
                 f'single-format-standard category-{a["cat"]}">\n')
        page += site_header("News")
        page += f"""<div id="page" class="site">
<main id="content" class="site-main">
  <article id="post-{a["id"]}" class="post post-{a["id"]} type-post status-publish format-standard has-post-thumbnail category-{a["cat"]}">
    <nav class="breadcrumb" aria-label="Breadcrumb"><a href="/index.html">Home</a> › <a href="/news/index.html">News</a> › <span>{MONTHS[d.month - 1]} {d.year}</span></nav>
    <header class="entry-header">
      <h1 class="headline entry-title">{esc(a["title"])}</h1>
      <div class="byline">By <a class="author" href="/author/{slugify(a["author"])}.html" rel="author">{esc(a["author"])}</a> · <time datetime="{d.isoformat()}">{fmt_date(d)}</time></div>
    </header>
    <div class="article-body entry-content">
{body}
    </div>
{share_box(a["href"], a["title"])}    <section class="related-stories">
      <h3>Related stories</h3>
      <ul>
{rel}
      </ul>
    </section>
    <p class="comments-count"><a href="{a["href"]}#comments">{comments}</a></p>
  </article>
{sidebar(most_read_for(d))}</main>
</div>
"""
        page += site_footer()
        write(a["path"], page)
        gold.append({"id": f"{HOST}/{a['path']}", "title": a["title"], "text": "\n".join(a["gold"])})

    # --- opinion pages --------------------------------------------------------
    for a in opinion:
        d = a["date"]
        name, bio = COLUMNISTS[a["columnist"]]
        more = [b for b in opinion if b["columnist"] == a["columnist"] and b is not a]
        more_li = "\n".join(f'        <li><a href="{b["href"]}">{esc(b["title"])}</a></li>' for b in more)
        extra = (f'<meta property="og:title" content="{attr(a["title"])}">\n'
                 f'<meta property="og:type" content="article">\n')
        body = "\n".join("      " + line for line in a["body_html"])
        page = head(f'{a["title"]} | Opinion | {SITE_NAME}', a["href"], a["dek"], extra)
        page += (f'<body class="column-template-default single single-column postid-{a["id"]} '
                 f'columnist-{slugify(name)}">\n')
        page += site_header("Opinion")
        page += f"""<div id="page" class="site">
<main id="content" class="site-main opinion-main">
  <article id="column-{a["id"]}" class="column post-{a["id"]} type-column status-publish">
    <div class="columnist-box">
      <img class="columnist-photo" src="/media/columnists/{slugify(name)}.jpg" alt="Portrait of {attr(name)}" width="96" height="96">
      <div class="columnist-info">
        <p class="columnist-name"><a href="/opinion/columnist/{slugify(name)}.html">{esc(name)}</a></p>
        <p class="columnist-bio">{esc(bio)}</p>
      </div>
    </div>
    <h2 class="column-title">{esc(a["title"])}</h2>
    <p class="dek">{esc(a["dek"])}</p>
    <p class="column-meta"><span class="label">Opinion</span> · <time datetime="{d.isoformat()}">{fmt_date(d)}</time></p>
    <section class="column-text">
{body}
    </section>
    <p class="disclaimer"><em>Views expressed in columns are the author's own and not those of {SITE_NAME}.</em></p>
{share_box(a["href"], a["title"])}    <section class="more-from-columnist">
      <h3>More from this columnist</h3>
      <ul>
{more_li}
      </ul>
    </section>
  </article>
{sidebar(most_read_for(d))}</main>
</div>
"""
        page += site_footer()
        write(a["path"], page)
        gold.append({"id": f"{HOST}/{a['path']}", "title": a["title"], "text": "\n".join(a["gold"])})

    # --- index pages ----------------------------------------------------------
    def teaser_list(items: list[dict], show_author: bool = True) -> str:
        out = []
        for b in items:
            who = b["author"] if b["kind"] == "news" else COLUMNISTS[b["columnist"]][0]
            kicker = "Opinion" if b["kind"] == "opinion" else cap(b["cat"].replace("-", " "))
            out.append(f"""    <article class="teaser post-{b["id"]} teaser-{b["kind"]}">
      <p class="kicker">{kicker}</p>
      <h2 class="teaser-title"><a href="{b["href"]}">{esc(b["title"])}</a></h2>
      <p class="teaser-meta"><time datetime="{b["date"].isoformat()}">{fmt_date(b["date"])}</time>{" · By " + esc(who) if show_author else ""}</p>
      <p class="teaser-text">{esc(b["teaser"])}</p>
    </article>""")
        return "\n".join(out)

    def index_page(path: str, title: str, h1: str, items: list[dict], active: str,
                   body_class: str, pager: str = "") -> None:
        page = head(title, "/" + path, f"{h1} from {SITE_NAME}")
        page += f'<body class="{body_class}">\n'
        page += site_header(active)
        page += f"""<div id="page" class="site">
<main id="content" class="site-main archive">
  <header class="page-header"><h1 class="page-title">{esc(h1)}</h1></header>
  <div class="post-list">
{teaser_list(items)}
  </div>
{pager}{sidebar(most_read_for(None))}</main>
</div>
"""
        page += site_footer()
        write(path, page)

    news_desc = sorted(news, key=lambda b: b["date"], reverse=True)
    op_desc = sorted(opinion, key=lambda b: b["date"], reverse=True)
    home_items = sorted(news_desc[:7] + op_desc[:3], key=lambda b: b["date"], reverse=True)
    index_page("index.html", f"{SITE_NAME} – News for the upper Corran valley", "Latest stories",
               home_items, "Home", "home blog")
    per_page = 6
    n_pages = (len(news_desc) + per_page - 1) // per_page
    for p in range(1, n_pages + 1):
        chunk = news_desc[(p - 1) * per_page:p * per_page]
        links = []
        if p > 1:
            prev = "/news/index.html" if p == 2 else f"/news/page/{p - 1}.html"
            links.append(f'<a class="prev page-numbers" href="{prev}">« Newer stories</a>')
        for q in range(1, n_pages + 1):
            href = "/news/index.html" if q == 1 else f"/news/page/{q}.html"
            if q == p:
                links.append(f'<span aria-current="page" class="page-numbers current">{q}</span>')
            else:
                links.append(f'<a class="page-numbers" href="{href}">{q}</a>')
        if p < n_pages:
            links.append(f'<a class="next page-numbers" href="/news/page/{p + 1}.html">Older stories »</a>')
        pager = ('  <nav class="navigation pagination" aria-label="Posts">'
                 + " ".join(links) + "</nav>\n")
        path = "news/index.html" if p == 1 else f"news/page/{p}.html"
        title = f"News – {SITE_NAME}" if p == 1 else f"News – Page {p} – {SITE_NAME}"
        bc = "archive category category-news" + ("" if p == 1 else f" paged paged-{p}")
        index_page(path, title, "News", chunk, "News", bc, pager)
    index_page("opinion/index.html", f"Opinion – {SITE_NAME}", "Opinion", op_desc, "Opinion",
               "archive category category-opinion")

    # --- about page -----------------------------------------------------------
    paras = "\n".join(f"    <p>{esc(p)}</p>" for p in ABOUT_PARAS)
    page = head(f"About us – {SITE_NAME}", "/about.html", f"About {SITE_NAME}")
    page += '<body class="page-template-default page page-id-2">\n'
    page += site_header("")
    page += f"""<div id="page" class="site">
<main id="content" class="site-main">
  <article id="post-2" class="page post-2 type-page">
    <h1 class="entry-title">About the Ledger</h1>
{paras}
    <h2>Contact the newsroom</h2>
    <p>Send tips and letters to <a href="mailto:newsroom@{HOST}">newsroom@{HOST}</a> or visit us at 14 Depot Road, Larkspur.</p>
  </article>
</main>
</div>
"""
    page += site_footer()
    write("about.html", page)

    # --- sanity: every article linked from an index page with its exact title ----------
    index_html = "".join((SITE_DIR / p).read_text(encoding="utf-8") for p in
                         ["index.html", "news/index.html", "opinion/index.html"]
                         + [f"news/page/{q}.html" for q in range(2, n_pages + 1)])
    for a in news + opinion:
        assert f'<a href="{a["href"]}">{esc(a["title"])}</a>' in index_html, a["title"]

    gold.sort(key=lambda g: g["id"])
    with open(GOLD_PATH, "w", encoding="utf-8", newline="\n") as f:
        for g in gold:
            f.write(json.dumps(g, ensure_ascii=False) + "\n")


# ---------------------------------------------------------------------------
# The shop: a second site, for named fields (price, SKU, specs, tags)
# ---------------------------------------------------------------------------

SHOP_CATEGORIES = ["Garden", "Tools", "Energy", "Kitchen"]
SHOP_THINGS = {
    "Garden": ["Rain Barrel", "Compost Bin", "Seed Tray Set", "Garden Hose Reel", "Pruning Shears",
               "Raised Bed Kit", "Watering Can", "Bird Feeder", "Trellis Panel"],
    "Tools": ["Cordless Drill", "Claw Hammer", "Socket Set", "Spirit Level", "Tape Measure",
              "Work Bench", "Hand Saw", "Utility Knife", "Clamp Pair"],
    "Energy": ["Solar Lantern", "LED Bulb Pack", "Draught Excluder", "Power Bank", "Solar Panel Kit",
               "Smart Plug", "Wood Stove Fan", "Window Film", "Radiator Foil"],
    "Kitchen": ["Cast Iron Pan", "Bread Bin", "Knife Block", "Spice Rack", "Kettle",
                "Mixing Bowl Set", "Chopping Board", "Preserving Jar Set", "Coffee Grinder"],
}
SHOP_ADJECTIVES = ["Sturdy", "Classic", "Compact", "Deluxe", "Heritage", "Valley", "Everyday", "Pro"]
SHOP_TAGS = ["Energy", "Outdoor", "Gift idea", "Bestseller", "Eco", "New", "Made locally", "Winter",
             "Summer", "Small spaces"]
SHOP_MATERIALS = ["steel", "oak", "recycled plastic", "aluminium", "cast iron", "bamboo", "glass"]
SHOP_COLOURS = ["green", "black", "slate grey", "natural", "red", "white"]
SHOP_SENTENCES = [
    "Built for years of use in the {cat_l} and beyond, the {name} is a favourite of our regulars.",
    "Every {name} we sell is checked by hand in our Larkspur workshop before it ships.",
    "Customers tell us the {name} is the last one they will ever need to buy.",
    "Made of {material}, it shrugs off the damp of a valley winter.",
    "It comes in {colour}, and fits neatly on a shelf when not in use.",
    "Order before noon and we deliver anywhere in the valley the next working day.",
    "Spare parts for the {name} are kept in stock for ten years.",
    "We tested the {name} for {hours} hours in the workshop before adding it to the range.",
    "{buyers} customers in {town} have bought one since {year}, and {returns} sent it back.",
    "Our staff member {person} uses one at home on {street} and swears by it.",
    "At {weight} it is light enough to carry to the allotment on {street}.",
    "The {name} won the {town} Fair prize for practical design in {year}.",
    "Ask {person} at the counter about the {colour} finish; a sample is on display by the door.",
    "Delivery to {town} takes {days} working days, or collect it from the shop on Mill Road.",
]


def _shop_head(title: str, path: str, extra: str = "") -> str:
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{esc(title)} | {SHOP_NAME}</title>
<link rel="canonical" href="https://{SHOP_HOST}/{path}">
<link rel="stylesheet" href="/static/shop.css">
{extra}</head>
<body>
<header class="shop-header">
  <p class="shop-name"><a href="/index.html">{SHOP_NAME}</a></p>
  <nav class="shop-nav"><ul>{"".join(f'<li><a href="/c/{slugify(c)}.html">{c}</a></li>' for c in SHOP_CATEGORIES)}<li><a href="/deals.html">Deals</a></li></ul></nav>
  <p class="basket"><a href="/basket.html">Basket</a></p>
</header>
<div id="wrap">
"""


_SHOP_FOOT = f"""</div>
<footer class="shop-footer">
  <p>{SHOP_NAME}, 3 Mill Road, Larkspur. Open Monday to Saturday, 8 a.m. to 6 p.m.</p>
  <p>Prices include VAT. Free delivery in the valley on orders over $50.</p>
</footer>
</body>
</html>
"""


def _shop_details(item: dict) -> str:
    """The block both templates share: SKU, specs, tags, manual (the same keys on both)."""
    specs = "\n".join(f"            <li>{esc(s)}</li>" for s in item["specs"])
    tags = "\n".join(f'            <li><a href="/tag/{slugify(t)}.html">{esc(t)}</a></li>' for t in item["tags"])
    return f"""    <section class="details">
      <div class="inner">
        <div class="codes">
          <p class="sku">SKU: <span>{item["sku"]}</span></p>
        </div>
        <div class="spec-box">
          <h3>Specifications</h3>
          <ul class="specs">
{specs}
          </ul>
        </div>
        <div class="tag-box">
          <ul class="tags">
{tags}
          </ul>
        </div>
        <div class="docs">
          <p class="manual"><a href="{item["manual"]}">Product manual (PDF)</a></p>
        </div>
      </div>
    </section>
"""


def shop_main() -> None:
    """Write the shop site and its gold (`SHOP_GOLD_PATH`)."""
    rng = random.Random(11)
    if SHOP_DIR.exists():
        shutil.rmtree(SHOP_DIR)
    items = []
    skus = rng.sample(range(10000, 99999), k=2 * sum(len(v) for v in SHOP_THINGS.values()))
    for cat in SHOP_CATEGORIES:
        for thing, adjective in ((t, a) for t in SHOP_THINGS[cat] for a in rng.sample(SHOP_ADJECTIVES, k=2)):
            name = f"{adjective} {thing}"
            sku = f"CVS-{cat[:2].upper()}{skus[len(items)]}"
            cents = rng.choice([0, 49, 95, 99])
            price = f"${rng.randint(4, 240)}.{cents:02d}"
            specs = [f"Weight: {rng.randint(1, 90) / 10:.1f} kg", f"Material: {rng.choice(SHOP_MATERIALS)}",
                     f"Colour: {rng.choice(SHOP_COLOURS)}"]
            if rng.random() < 0.5:
                specs.append(f"Warranty: {rng.choice([1, 2, 3, 5])} years")
            tags = sorted(rng.sample(SHOP_TAGS, k=rng.randint(1, 3)), key=SHOP_TAGS.index)
            slug = slugify(name)
            items.append(dict(name=name, cat=cat, sku=sku, price=price, specs=specs, tags=tags, slug=slug,
                              manual=f"/manuals/{sku.lower()}.pdf", image=f"/media/{slug}.jpg",
                              deal=len(items) % 3 == 2))
    gold = []
    for item in items:
        kind = "deal" if item["deal"] else "product"
        path = f"{kind}s/{item['slug']}.html"
        ld = json.dumps({"@context": "https://schema.org", "@type": "Product", "name": item["name"],
                         "sku": item["sku"], "offers": {"@type": "Offer", "price": item["price"][1:],
                                                        "priceCurrency": "USD"}})
        page = _shop_head(item["name"], path, f'<meta property="og:image" content="https://{SHOP_HOST}{item["image"]}">\n'
                          f'<script type="application/ld+json">{ld}</script>\n')
        filler = {"name": item["name"].lower(), "cat_l": item["cat"].lower(),
                  "material": item["specs"][1].split(": ")[1], "colour": item["specs"][2].split(": ")[1],
                  "weight": item["specs"][0].split(": ")[1], "hours": rng.randint(20, 900),
                  "buyers": rng.randint(12, 480), "returns": rng.choice(["none", "one", "two", "a handful"]),
                  "town": rng.choice(TOWNS), "year": rng.randint(2009, 2023), "days": rng.randint(1, 4),
                  "person": f"{rng.choice(FIRST_NAMES)} {rng.choice(LAST_NAMES)}", "street": rng.choice(STREETS)}
        desc = "\n".join(f"      <p>{esc(t.format(**filler))}</p>" for t in rng.sample(SHOP_SENTENCES, k=4))
        if item["deal"]:
            was = item["price"]
            item["price"] = f"${float(was[1:]) * 0.8:.2f}"
            page += f"""<main class="deal-page">
  <div class="deal-banner"><p>Deal of the week: while stocks last</p></div>
  <article class="deal">
    <h2 class="deal-title">{esc(item["name"])}</h2>
    <div class="deal-box">
      <p class="label">Price:</p>
      <p class="deal-price">{item["price"]}</p>
      <p class="was">Was {was}</p>
      <p class="cart"><a href="/basket.html?add={item["sku"]}">Add to basket</a></p>
    </div>
    <div class="deal-text">
{desc}
    </div>
{_shop_details(item)}  </article>
</main>
"""
        else:
            page += f"""<main class="product-page">
  <p class="crumbs"><a href="/index.html">Shop</a> › <a href="/c/{slugify(item["cat"])}.html">{item["cat"]}</a></p>
  <article class="product">
    <h1 class="product-name">{esc(item["name"])}</h1>
    <figure class="product-image"><img src="{item["image"]}" alt=""><figcaption>{esc(item["name"])}</figcaption></figure>
    <div class="buy">
      <p class="label">Price:</p>
      <p class="price">{item["price"]}</p>
      <p class="stock">In stock</p>
      <p class="cart"><a href="/basket.html?add={item["sku"]}">Add to basket</a></p>
    </div>
    <div class="description">
{desc}
    </div>
{_shop_details(item)}  </article>
</main>
"""
        page += _SHOP_FOOT
        write(path, page, SHOP_DIR)
        gold.append({"id": f"{SHOP_HOST}/{path}", "layout": kind, "price": item["price"], "sku": item["sku"],
                     "specs": item["specs"], "tags": item["tags"],
                     "manual": item["manual"]})
    for cat in SHOP_CATEGORIES:
        rows = "\n".join(f'    <li class="card"><a href="/{"deals" if i["deal"] else "products"}/{i["slug"]}.html">'
                         f'{esc(i["name"])}</a> <span class="card-price">{i["price"]}</span></li>'
                         for i in items if i["cat"] == cat)
        page = _shop_head(cat, f"c/{slugify(cat)}.html")
        page += f"""<main class="category">
  <h1>{cat}</h1>
  <ul class="cards">
{rows}
  </ul>
</main>
"""
        write(f"c/{slugify(cat)}.html", page + _SHOP_FOOT, SHOP_DIR)
    gold.sort(key=lambda g: g["id"])
    with open(SHOP_GOLD_PATH, "w", encoding="utf-8", newline="\n") as f:
        for g in gold:
            f.write(json.dumps(g, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
    shop_main()
