"""Build Ranklab's small test collection: documents, queries, graded judgments and two runs.

    python assets/make_collection.py            # writes assets/collection/ and assets/examples/
    python assets/make_collection.py --out DIR  # somewhere else (the test compares the two)

Deterministic (fixed seed, no downloads, pure Python). The documents are short synthetic
texts on twelve topics, each topic with three facets; a query asks for one facet of one
topic. Judgments come from the hidden labels, not from the words, so no run is perfect:

- grades 1, 2, 3: same topic and facet; the grade is the document's hidden quality
  (about 40 % / 35 % / 25 %)
- grade 0: judged but not relevant (another facet, or another topic)

Judged documents are the pool of both runs' top 20 plus every document of the query's topic
and facet (so R is complete); anything else is unjudged. Runs (TREC format, depth 100):

- ``run_bm25.txt``: BM25 (k1 = 0.9, b = 0.4, Robertson–Spärck Jones idf) implemented below
- ``run_tf.txt``: a weaker baseline, raw term frequency of the query words (no idf, no
  length normalisation)

``assets/examples/`` holds the same judgments and BM25 results in the Azure AI Search README's JSONL layout
(documents identified by ``filename`` + ``page_number``).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import re
from collections import Counter
from pathlib import Path

SEED = 2026
HERE = Path(__file__).resolve().parent
DOCS_PER_FACET = 8
NOISE_DOCS = 36
DEPTH = 100
POOL = 20

TOPICS = {
    "cats": ("cat kitten feline whiskers purr", {
        "feeding": "food diet wet dry kibble portion protein bowl",
        "behaviour": "scratch play hunt knead hiss territory boredom toy",
        "health": "vet vaccine fleas teeth kidney checkup weight illness"}),
    "coffee": ("coffee bean roast brew cup", {
        "espresso": "espresso crema pressure portafilter shot tamp grind machine",
        "filter": "filter pourover paper kettle bloom dripper ratio gooseneck",
        "growing": "farm arabica altitude harvest cherry plantation shade soil"}),
    "solar": ("solar panel sun energy power", {
        "installation": "roof mount inverter wiring angle installer permit bracket",
        "storage": "battery storage lithium night backup capacity charge cycle",
        "efficiency": "efficiency cell silicon loss temperature shading output degradation"}),
    "volcanoes": ("volcano lava magma eruption crater", {
        "prediction": "seismic monitor warning gas tremor sensor forecast satellite",
        "history": "vesuvius pompeii krakatoa ancient record ash buried chronicle",
        "geology": "plate tectonic basalt mantle hotspot rock cone caldera"}),
    "bicycles": ("bicycle bike ride wheel cycling", {
        "repair": "puncture tube chain brake fix tool patch derailleur",
        "commuting": "commute city lane helmet traffic lock route rain",
        "racing": "race sprint peloton carbon aerodynamic stage climb training"}),
    "bread": ("bread dough flour bake loaf", {
        "sourdough": "sourdough starter wild yeast ferment levain tang culture",
        "ovens": "oven steam crust temperature stone dutch bake heat",
        "gluten": "gluten knead protein wheat elastic network rye allergy"}),
    "chess": ("chess board piece move game", {
        "openings": "opening gambit sicilian defence pawn centre theory repertoire",
        "endgames": "endgame king rook promotion opposition zugzwang technique draw",
        "engines": "engine computer evaluation search neural stockfish analysis depth"}),
    "oceans": ("ocean sea water marine tide", {
        "reefs": "coral reef bleaching fish polyp warming symbiosis algae",
        "tides": "tide moon gravity high low pool shore current",
        "deepsea": "deep trench pressure darkness submarine creature vent abyss"}),
    "jazz": ("jazz music band swing improvisation", {
        "piano": "piano chord voicing keyboard stride comping pianist harmony",
        "history": "orleans bebop era club record legend ellington decade",
        "theory": "scale mode blues progression rhythm syncopation tritone cadence"}),
    "python": ("python code program software developer", {
        "packaging": "package wheel install pip dependency version release build",
        "testing": "test pytest assert fixture coverage mock regression suite",
        "performance": "speed profile vectorise numpy memory loop optimise benchmark"}),
    "bees": ("bee hive honey colony pollen", {
        "beekeeping": "beekeeper frame smoker inspect super harvest suit apiary",
        "decline": "decline pesticide mite collapse habitat loss varroa disease",
        "pollination": "pollinate flower crop orchard nectar blossom seed fruit"}),
    "frogs": ("frog amphibian pond tadpole croak", {
        "rainforest": "rainforest canopy tree poison dart colourful humid species",
        "lifecycle": "egg spawn metamorphosis tadpole legs tail adult growth",
        "conservation": "fungus chytrid extinction protect wetland survey threatened breeding"}),
}
FILLER = ("the a of and to in is for on with as this that it are by from about can also more "
          "people often most many some new guide notes report simple common very way part").split()
QUESTION_WORDS = ("how why what best guide tips").split()


def tokens(text: str) -> list[str]:
    return re.findall(r"[a-z]+", text.lower())


def make_documents(rng: random.Random) -> list[dict]:
    docs = []
    for topic, (core, facets) in TOPICS.items():
        core_words = core.split()
        for facet, words in facets.items():
            facet_words = words.split()
            others = [w for f, ws in facets.items() if f != facet for w in ws.split()]
            for _ in range(DOCS_PER_FACET):
                length = rng.randint(18, 60)
                body = []
                for _ in range(length):
                    r = rng.random()
                    if r < 0.13:
                        body.append(rng.choice(facet_words))
                    elif r < 0.30:
                        body.append(rng.choice(core_words))
                    elif r < 0.42:
                        body.append(rng.choice(others))
                    else:
                        body.append(rng.choice(FILLER))
                quality = rng.choices([1, 2, 3], weights=[40, 35, 25])[0]
                docs.append({"topic": topic, "facet": facet, "quality": quality,
                             "text": " ".join(body), "filename": f"{topic}.pdf"})
    # off-topic noise that borrows words from everywhere
    all_words = [w for core, facets in TOPICS.values() for ws in [core, *facets.values()] for w in ws.split()]
    for _ in range(NOISE_DOCS):
        body = [rng.choice(all_words) if rng.random() < 0.3 else rng.choice(FILLER) for _ in range(rng.randint(15, 45))]
        docs.append({"topic": None, "facet": None, "quality": 0, "text": " ".join(body),
                     "filename": "misc.pdf"})
    rng.shuffle(docs)
    pages: Counter = Counter()
    for i, d in enumerate(docs, start=1):
        d["id"] = f"D{i:03d}"
        pages[d["filename"]] += 1
        d["page_number"] = pages[d["filename"]]
        d["title"] = " ".join(d["text"].split()[:6]).capitalize()
    return docs


def make_queries(rng: random.Random) -> list[dict]:
    queries = []
    pairs = [(t, f) for t, (_, facets) in TOPICS.items() for f in facets]
    rng.shuffle(pairs)
    for i, (topic, facet) in enumerate(pairs[:30], start=1):
        core = TOPICS[topic][0].split()
        facet_words = TOPICS[topic][1][facet].split()
        words = [rng.choice(QUESTION_WORDS)] if rng.random() < 0.4 else []
        words += rng.sample(facet_words, rng.randint(1, 3)) + [rng.choice(core)]
        queries.append({"qid": str(100 + i), "text": " ".join(words), "topic": topic, "facet": facet})
    return queries


def bm25_scores(query: list[str], docs: list[list[str]], k1: float = 0.9, b: float = 0.4) -> list[float]:
    n = len(docs)
    avg = sum(len(d) for d in docs) / n
    df = Counter(w for d in docs for w in set(d))
    tfs = [Counter(d) for d in docs]
    scores = []
    for d, tf in zip(docs, tfs, strict=True):
        s = 0.0
        for w in query:
            if tf[w]:
                idf = math.log(1 + (n - df[w] + 0.5) / (df[w] + 0.5))
                s += idf * tf[w] * (k1 + 1) / (tf[w] + k1 * (1 - b + b * len(d) / avg))
        scores.append(s)
    return scores


def tf_scores(query: list[str], docs: list[list[str]]) -> list[float]:
    return [float(sum(Counter(d)[w] for w in query)) for d in docs]


def ranked(scores: list[float], ids: list[str]) -> list[tuple[str, float]]:
    """Top DEPTH by score (ties by id descending, as trec_eval), scores rounded to 4 places."""
    pairs = [(i, round(s, 4)) for i, s in zip(ids, scores, strict=True) if s > 0]
    pairs.sort(key=lambda p: p[0], reverse=True)
    pairs.sort(key=lambda p: p[1], reverse=True)
    return pairs[:DEPTH]


def grade(doc: dict, query: dict) -> int:
    if doc["topic"] != query["topic"] or doc["facet"] != query["facet"]:
        return 0
    return doc["quality"]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=HERE, help="folder for collection/ and examples/")
    args = parser.parse_args(argv)
    rng = random.Random(SEED)
    docs = make_documents(rng)
    queries = make_queries(rng)
    ids = [d["id"] for d in docs]
    texts = [tokens(d["text"]) for d in docs]
    by_id = {d["id"]: d for d in docs}
    runs = {"bm25": {}, "tf": {}}
    for q in queries:
        words = tokens(q["text"])
        runs["bm25"][q["qid"]] = ranked(bm25_scores(words, texts), ids)
        runs["tf"][q["qid"]] = ranked(tf_scores(words, texts), ids)

    out = args.out / "collection"
    out.mkdir(parents=True, exist_ok=True)
    with open(out / "docs.jsonl", "w") as f:
        for d in docs:
            f.write(json.dumps({"id": d["id"], "filename": d["filename"], "page_number": d["page_number"],
                                "title": d["title"], "text": d["text"]}) + "\n")
    with open(out / "queries.tsv", "w") as f:
        f.write("qid\ttext\n")
        for q in queries:
            f.write(f"{q['qid']}\t{q['text']}\n")
    qrels = {}
    with open(out / "qrels.txt", "w") as f:
        for q in queries:
            pool = {d for name in runs for d, _ in runs[name][q["qid"]][:POOL]}
            pool |= {d["id"] for d in docs if d["topic"] == q["topic"] and d["facet"] == q["facet"]}
            qrels[q["qid"]] = {d: grade(by_id[d], q) for d in sorted(pool)}
            for d, g in qrels[q["qid"]].items():
                f.write(f"{q['qid']} 0 {d} {g}\n")
    for name, run in runs.items():
        with open(out / f"run_{name}.txt", "w") as f:
            for q in queries:
                for rank, (d, s) in enumerate(run[q["qid"]], start=1):
                    f.write(f"{q['qid']} Q0 {d} {rank} {s:.4f} {name}\n")

    examples = args.out / "examples"
    examples.mkdir(exist_ok=True)
    with open(examples / "ground_truth.jsonl", "w") as f:
        for q in queries:
            truth = [{"filename": by_id[d]["filename"], "page_number": by_id[d]["page_number"], "grade": g}
                     for d, g in qrels[q["qid"]].items() if g > 0]
            f.write(json.dumps({"query_id": q["qid"], "query": q["text"], "ground_truth": truth}) + "\n")
    with open(examples / "results.jsonl", "w") as f:
        for q in queries:
            results = [{"filename": by_id[d]["filename"], "page_number": by_id[d]["page_number"], "score": s}
                       for d, s in runs["bm25"][q["qid"]][:10]]
            f.write(json.dumps({"query_id": q["qid"], "results": results}) + "\n")
    print(f"{len(docs)} documents, {len(queries)} queries, "
          f"{sum(len(j) for j in qrels.values())} judgments -> {out}, {examples}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
