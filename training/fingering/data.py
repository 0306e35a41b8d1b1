"""Reading the real-tabs corpus into tracks of note groups (offline training only)."""
import json
import os

DEFAULT_CORPUS = os.path.join(os.path.dirname(__file__), '..', '..', '..', 'shared', 'datasets', 'real-tabs')


def corpus_dir(arg=None):
    return os.path.abspath(arg or os.environ.get('RIFFSCRIBE_REAL_TABS') or DEFAULT_CORPUS)


def load_tracks(root):
    """Every track: dict(repo, song, program, tuning, capo, notes=[(time, pitch, string, fret)])
    with notes sorted by time, then pitch (low first)."""
    with open(os.path.join(root, 'index.json')) as f:
        index = json.load(f)
    tracks = []
    for entry in index:
        with open(os.path.join(root, entry['file'])) as f:
            t = json.load(f)
        notes = sorted(((n['time'], n['midi'], n['string'], n['fret']) for n in t['notes']),
                       key=lambda n: (round(n[0], 4), n[1], n[2]))
        tracks.append(dict(repo=entry['repo'], song=entry['repo'] + '/' + entry['path'],
                           file=entry['file'], program=t.get('program', 25),
                           tuning=list(t['tuning']), capo=int(t.get('capo', 0)), notes=notes))
    return tracks
