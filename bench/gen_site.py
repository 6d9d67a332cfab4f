"""Generates a Hugo-like built site for benchmarks, deterministic from a seed.

    python3 bench/gen_site.py OUT_DIR PAGES [SEED]

Pages are 4-8 KiB with a full <head>: canonical to self, a stylesheet, 2% noindex, 1%
redirect stubs, 10% in hreflang pairs (en/de); sections with pagination directories
and an image beside every 50th page.
"""
import os
import random
import sys

out, n = sys.argv[1], int(sys.argv[2])
rng = random.Random(int(sys.argv[3]) if len(sys.argv) > 3 else 42)
words = "static site sitemap search engine crawl index page content build deploy rust fast exact".split()


def page(url, extra_head, size):
    body, total = [], 0
    while total < size:
        p = "<p>" + " ".join(rng.choice(words) for _ in range(40)) + "</p>\n"
        body.append(p)
        total += len(p)
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{url}</title>\n"
        '<meta name="description" content="A generated page for benchmarks.">\n'
        f'<link rel="canonical" href="https://example.org{url}">\n'
        '<link rel="stylesheet" href="/css/main.3f2a9c.css">\n'
        '<script src="/js/app.8b1d.js" defer></script>\n'
        f'{extra_head}</head>\n<body>\n<header><nav><a href="/">Home</a></nav></header>\n'
        f"<main>\n<h1>{url}</h1>\n{''.join(body)}</main>\n<footer>footer</footer>\n</body>\n</html>\n"
    )


for i in range(n):
    section = f"section-{i % 50}"
    if i % 10 == 9:
        rel = f"{section}/page/{i // 500 + 2}/index.html"
    elif i % 10 == 3:
        lang = "de" if i % 20 == 3 else "en"
        rel = f"{lang}/{section}/post-{i - i % 20}/index.html"
    else:
        rel = f"{section}/post-{i}/index.html"
    url = "/" + rel[: -len("index.html")]
    extra = ""
    r = rng.random()
    if r < 0.02:
        extra = '<meta name="robots" content="noindex">\n'
    elif r < 0.03:
        extra = '<meta http-equiv="refresh" content="0; url=/">\n'
    if rel.startswith(("en/", "de/")):
        other = ("de" if rel.startswith("en/") else "en") + url[3:]
        extra += f'<link rel="alternate" hreflang="{rel[:2]}" href="https://example.org{url}">\n'
        extra += f'<link rel="alternate" hreflang="{other[:2]}" href="https://example.org/{other}">\n'
    path = os.path.join(out, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(page(url, extra, rng.randint(3500, 7500)))
    if i % 50 == 0:
        with open(os.path.join(os.path.dirname(path), "cover.jpg"), "wb") as f:
            f.write(b"\xff\xd8\xff" + bytes(rng.randrange(256) for _ in range(512)))
