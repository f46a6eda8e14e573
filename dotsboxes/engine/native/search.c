/*
 * dotsboxes.engine._native_search: the heuristic search of dotsboxes/engine/search.py in C11.
 *
 * The same algorithm, step for step (read search.py's docstrings for the why of
 * each rule): iterative-deepening alpha-beta on the margin of the side to move,
 * captures at no depth with take-or-decline only at the last two boxes of a
 * chain or four of a loop, one hand-out per component, exact values of simple
 * loony endgames (Berlekamp's recursion), chain-parity leaves or random
 * completions of the safe phase, the simple-endgame root and the ``only`` root
 * restriction.  What differs:
 *
 * - the random numbers: xoshiro256** seeded by splitmix64 from the seed and the
 *   position's edges (one stream orders the root's safe moves, another drives
 *   the completions), so a seed gives the same moves on every platform, but not
 *   the Python search's moves;
 * - the transposition table: a fixed array of two-entry buckets (a Table object
 *   the caller may keep across moves), keyed by the exact drawn-edge set; the
 *   first entry of a bucket keeps the deeper search, the second the latest;
 * - the memo of closed-component values: per search, direct-mapped, exact keys.
 *
 * Node limits decide the result; the deadline (seconds from the call, on
 * CLOCK_MONOTONIC) is checked at the first node and every 32 nodes after.  The search runs with the GIL
 * released; a Table serves one search at a time.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef unsigned __int128 u128;

#define MAXE 128
#define MAXB 64
#define GROUND (-1)
#define INF 10000
#define EXACT_DEPTH 1000
#define NO_MOVE 255
#define MAX_TABLE_ENTRIES (1u << 26)

enum { LOWER, UPPER, EXACT };
enum { END_BORDER, END_JUNCTION, END_OPENED, END_LOOP };

#define BIT(e) ((u128)1 << (e))

/* -- random numbers ----------------------------------------------------------- */

static uint64_t splitmix64(uint64_t *x)
{
    uint64_t z = (*x += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

typedef struct {
    uint64_t s[4];
} Rng;

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static uint64_t rng_next(Rng *r)
{
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

/* A stream for (seed, position, purpose): the position's edges and size are mixed
 * in, so the same seed plays differently in different positions. */
static void rng_seed(Rng *r, uint64_t seed, u128 drawn, int width, int height, uint64_t purpose)
{
    uint64_t x = seed;
    uint64_t h = splitmix64(&x);
    x ^= (uint64_t)drawn;
    h ^= splitmix64(&x);
    x ^= (uint64_t)(drawn >> 64);
    h ^= splitmix64(&x);
    x ^= ((uint64_t)width << 16) | ((uint64_t)height << 8) | purpose;
    h ^= splitmix64(&x);
    for (int i = 0; i < 4; i++)
        r->s[i] = splitmix64(&h);
}

/* Fisher-Yates, as random.shuffle does it (from the end). */
static void shuffle(Rng *r, int *xs, int n)
{
    for (int i = n - 1; i > 0; i--) {
        int j = (int)(rng_next(r) % (uint64_t)(i + 1));
        int t = xs[i];
        xs[i] = xs[j];
        xs[j] = t;
    }
}

/* -- geometry ------------------------------------------------------------------ */

typedef struct {
    PyObject_HEAD
    int width, height, n_edges, n_boxes;
    int eb_n[MAXE];
    int eb[MAXE][2];
    int around_e[MAXB][4];
    int around_o[MAXB][4];
} GeoObject;

static int geo_init(GeoObject *self, PyObject *args, PyObject *kwds)
{
    int width, height;
    PyObject *edge_boxes, *around;
    static char *kwlist[] = {"width", "height", "edge_boxes", "around", NULL};
    if (!PyArg_ParseTupleAndKeywords(
            args, kwds, "iiOO", kwlist, &width, &height, &edge_boxes, &around))
        return -1;
    if (self->n_edges) {
        PyErr_SetString(PyExc_RuntimeError, "a Geometry is initialised once");
        return -1;
    }
    if (width < 1 || height < 1 || width * height > MAXB) {
        PyErr_Format(PyExc_ValueError, "a %d x %d board does not fit the native search", width,
                     height);
        return -1;
    }
    int n_boxes = width * height;
    int n_edges = width * (height + 1) + height * (width + 1);
    if (n_edges > MAXE) {
        PyErr_Format(PyExc_ValueError, "a %d x %d board does not fit the native search", width,
                     height);
        return -1;
    }
    PyObject *eb = PySequence_Fast(edge_boxes, "edge_boxes must be a sequence");
    if (!eb)
        return -1;
    PyObject *ar = PySequence_Fast(around, "around must be a sequence");
    if (!ar) {
        Py_DECREF(eb);
        return -1;
    }
    int ok = 0;
    if (PySequence_Fast_GET_SIZE(eb) != n_edges || PySequence_Fast_GET_SIZE(ar) != n_boxes) {
        PyErr_SetString(PyExc_ValueError, "edge_boxes or around does not match the board size");
        goto done;
    }
    for (int e = 0; e < n_edges; e++) {
        PyObject *boxes = PySequence_Fast(PySequence_Fast_GET_ITEM(eb, e), "edge_boxes[e]");
        if (!boxes)
            goto done;
        Py_ssize_t n = PySequence_Fast_GET_SIZE(boxes);
        int good = n == 1 || n == 2;
        for (Py_ssize_t k = 0; good && k < n; k++) {
            long b = PyLong_AsLong(PySequence_Fast_GET_ITEM(boxes, k));
            good = b >= 0 && b < n_boxes;
            if (good)
                self->eb[e][k] = (int)b;
        }
        Py_DECREF(boxes);
        if (!good) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "edge_boxes: one or two boxes of the board");
            goto done;
        }
        self->eb_n[e] = (int)n;
    }
    for (int b = 0; b < n_boxes; b++) {
        PyObject *sides = PySequence_Fast(PySequence_Fast_GET_ITEM(ar, b), "around[b]");
        if (!sides)
            goto done;
        int good = PySequence_Fast_GET_SIZE(sides) == 4;
        for (int k = 0; good && k < 4; k++) {
            long e = -1, o = -2;
            PyObject *pair = PySequence_Fast_GET_ITEM(sides, k);
            if (PyTuple_Check(pair) && PyTuple_GET_SIZE(pair) == 2) {
                e = PyLong_AsLong(PyTuple_GET_ITEM(pair, 0));
                o = PyLong_AsLong(PyTuple_GET_ITEM(pair, 1));
            }
            good = e >= 0 && e < n_edges && o >= GROUND && o < n_boxes;
            if (good) {
                self->around_e[b][k] = (int)e;
                self->around_o[b][k] = (int)o;
            }
        }
        Py_DECREF(sides);
        if (!good) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "around: four (edge, neighbour) pairs a box");
            goto done;
        }
    }
    self->width = width;
    self->height = height;
    self->n_edges = n_edges;
    self->n_boxes = n_boxes;
    ok = 1;
done:
    Py_DECREF(eb);
    Py_DECREF(ar);
    return ok ? 0 : -1;
}

static PyTypeObject GeoType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "dotsboxes.engine._native_search.Geometry",
    .tp_basicsize = sizeof(GeoObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Geometry(width, height, edge_boxes, around): analysis.grid's tables.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)geo_init,
};

/* -- transposition table ---------------------------------------------------------- */

typedef struct {
    uint64_t lo, hi;
    int16_t value;
    int16_t depth;
    uint8_t flag, move, used;
} Entry;

typedef struct {
    PyObject_HEAD
    Entry *slots; /* 2 * (mask + 1) entries: buckets of two */
    uint64_t mask;
    int busy;
} TableObject;

static int table_init(TableObject *self, PyObject *args, PyObject *kwds)
{
    long long entries;
    static char *kwlist[] = {"entries", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "L", kwlist, &entries))
        return -1;
    if (entries < 2 || entries > MAX_TABLE_ENTRIES) {
        PyErr_Format(PyExc_ValueError, "a table holds 2 to %u entries, not %lld",
                     MAX_TABLE_ENTRIES, entries);
        return -1;
    }
    if (self->busy) {
        PyErr_SetString(PyExc_RuntimeError, "the table is in use by a search");
        return -1;
    }
    uint64_t buckets = 1;
    while (buckets * 2 < (uint64_t)entries)
        buckets *= 2;
    Entry *slots = calloc(buckets * 2, sizeof(Entry));
    if (!slots) {
        PyErr_NoMemory();
        return -1;
    }
    free(self->slots);
    self->slots = slots;
    self->mask = buckets - 1;
    return 0;
}

static void table_dealloc(TableObject *self)
{
    free(self->slots);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *table_entries(TableObject *self, void *closure)
{
    (void)closure;
    return PyLong_FromUnsignedLongLong(self->slots ? 2 * (self->mask + 1) : 0);
}

static PyGetSetDef table_getset[] = {
    {"entries", (getter)table_entries, NULL, "how many entries the table holds", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject TableType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "dotsboxes.engine._native_search.Table",
    .tp_basicsize = sizeof(TableObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Table(entries): the search's transposition table (kept across moves).",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)table_init,
    .tp_dealloc = (destructor)table_dealloc,
    .tp_getset = table_getset,
};

static inline uint64_t key_hash(u128 key)
{
    uint64_t x = (uint64_t)key ^ ((uint64_t)(key >> 64) * 0x9E3779B97F4A7C15ULL);
    x = (x ^ (x >> 31)) * 0xBF58476D1CE4E5B9ULL;
    return x ^ (x >> 29);
}

/* -- the searcher ----------------------------------------------------------------- */

typedef struct {
    uint8_t loop, length, opened;
    int8_t ends[2];
    int16_t end_edges[2];
    int16_t inner0;
} Comp;

#define MEMO_SLOTS 4096
#define MEMO_KEY 80

typedef struct {
    uint8_t used, n;
    int16_t value;
    uint8_t key[MEMO_KEY];
} Memo;

typedef struct {
    const GeoObject *g;
    uint8_t drawn[MAXE];
    uint8_t sides[MAXB];
    int unclaimed, undrawn;
    u128 key;
    long long nodes, max_nodes, next_clock, inexact;
    int has_deadline;
    struct timespec deadline;
    Entry *slots;
    uint64_t mask;
    int playouts;
    Rng rng;
    int has_partial, partial_move, partial_value;
    int aborted, stopped; /* stopped: by the deadline (aborted: by it or the node limit) */
    Memo *memo;
} S;

static inline int push(S *s, int i)
{
    const GeoObject *g = s->g;
    s->drawn[i] = 1;
    s->key ^= BIT(i);
    s->undrawn--;
    int claimed = 0;
    for (int k = 0; k < g->eb_n[i]; k++)
        if (++s->sides[g->eb[i][k]] == 4)
            claimed++;
    s->unclaimed -= claimed;
    return claimed;
}

static inline void pop(S *s, int i, int claimed)
{
    const GeoObject *g = s->g;
    s->drawn[i] = 0;
    s->key ^= BIT(i);
    s->undrawn++;
    s->unclaimed += claimed;
    for (int k = 0; k < g->eb_n[i]; k++)
        s->sides[g->eb[i][k]]--;
}

static inline int is_safe(const S *s, int i)
{
    const GeoObject *g = s->g;
    for (int k = 0; k < g->eb_n[i]; k++)
        if (s->sides[g->eb[i][k]] > 1)
            return 0;
    return 1;
}

static int has_capturable(const S *s)
{
    for (int b = 0; b < s->g->n_boxes; b++)
        if (s->sides[b] == 3)
            return 1;
    return 0;
}

/* No junction and nothing claimable: every unclaimed box has two or three sides. */
static int all_closed(const S *s)
{
    for (int b = 0; b < s->g->n_boxes; b++)
        if (s->sides[b] < 2)
            return 0;
    return 1;
}

static int safe_edges(const S *s, int *out)
{
    int n = 0;
    for (int i = 0; i < s->g->n_edges; i++)
        if (!s->drawn[i] && is_safe(s, i))
            out[n++] = i;
    return n;
}

/* -- components (analysis.raw_components) -- */

typedef struct {
    int boxes, n_inner, first, last, end, end_edge;
} Walk;

static void walk(const S *s, uint8_t *seen, int start, int e, int o, Walk *w)
{
    const GeoObject *g = s->g;
    w->boxes = w->n_inner = 0;
    w->first = w->last = -1;
    for (;;) {
        if (o == GROUND) {
            w->end = END_BORDER;
            w->end_edge = e;
            return;
        }
        int so = s->sides[o];
        if (so <= 1) {
            w->end = END_JUNCTION;
            w->end_edge = e;
            return;
        }
        if (w->first < 0)
            w->first = e;
        w->last = e;
        w->n_inner++;
        if (o == start) {
            w->end = END_LOOP;
            w->end_edge = -1;
            return;
        }
        seen[o] = 1;
        w->boxes++;
        if (so == 3) {
            w->end = END_OPENED;
            w->end_edge = -1;
            return;
        }
        int k;
        for (k = 0; k < 4; k++) {
            int e2 = g->around_e[o][k];
            if (e2 != e && !s->drawn[e2]) {
                e = e2;
                o = g->around_o[o][k];
                break;
            }
        }
        if (k == 4) { /* cannot happen: a box with two sides has two strings */
            w->end = END_JUNCTION;
            w->end_edge = e;
            return;
        }
    }
}

static int components(const S *s, Comp *out)
{
    const GeoObject *g = s->g;
    uint8_t seen[MAXB];
    memset(seen, 0, sizeof seen);
    int n = 0;
    for (int start = 0; start < g->n_boxes; start++) {
        int s0 = s->sides[start];
        if (s0 < 2 || s0 == 4 || seen[start])
            continue;
        seen[start] = 1;
        int se[2], so[2], k = 0;
        for (int j = 0; j < 4 && k < 2; j++)
            if (!s->drawn[g->around_e[start][j]]) {
                se[k] = g->around_e[start][j];
                so[k] = g->around_o[start][j];
                k++;
            }
        Walk a, b;
        walk(s, seen, start, se[0], so[0], &a);
        Comp *c = &out[n++];
        if (a.end == END_LOOP) {
            c->loop = 1;
            c->length = (uint8_t)(1 + a.boxes);
            c->opened = 0;
            c->ends[0] = c->ends[1] = -1;
            c->end_edges[0] = c->end_edges[1] = -1;
            c->inner0 = (int16_t)a.first;
            continue;
        }
        int first, last;
        c->loop = 0;
        if (k == 1) { /* the start box has three sides: an opened end */
            c->length = (uint8_t)(1 + a.boxes);
            c->ends[0] = END_OPENED;
            c->ends[1] = (int8_t)a.end;
            c->end_edges[0] = -1;
            c->end_edges[1] = (int16_t)a.end_edge;
            first = a.first;
            last = a.last;
        } else {
            walk(s, seen, start, se[1], so[1], &b);
            c->length = (uint8_t)(b.boxes + 1 + a.boxes);
            c->ends[0] = (int8_t)b.end;
            c->ends[1] = (int8_t)a.end;
            c->end_edges[0] = (int16_t)b.end_edge;
            c->end_edges[1] = (int16_t)a.end_edge;
            /* links: the back walk's edges reversed, then the forward walk's */
            first = b.n_inner ? b.last : a.first;
            last = a.n_inner ? a.last : b.first;
        }
        if (c->ends[1] == END_OPENED && c->ends[0] != END_OPENED) {
            int8_t t = c->ends[0];
            c->ends[0] = c->ends[1];
            c->ends[1] = t;
            int16_t u = c->end_edges[0];
            c->end_edges[0] = c->end_edges[1];
            c->end_edges[1] = u;
            int v = first;
            first = last;
            last = v;
        }
        c->inner0 = (int16_t)first;
        c->opened = (uint8_t)((c->ends[0] == END_OPENED) + (c->ends[1] == END_OPENED));
    }
    return n;
}

/* -- closed components (analysis.closed_value), memoised per search -- */

static int closed_value_rec(S *s, const uint8_t *ch, int nc, const uint8_t *lp, int nl);

static int closed_value(S *s, const uint8_t *ch, int nc, const uint8_t *lp, int nl)
{
    if (!nc && !nl)
        return 0;
    if (nc + nl + 1 > MEMO_KEY || !s->memo)
        return closed_value_rec(s, ch, nc, lp, nl);
    uint8_t key[MEMO_KEY];
    int n = 0;
    memcpy(key, ch, (size_t)nc);
    n = nc;
    key[n++] = 0;
    memcpy(key + n, lp, (size_t)nl);
    n += nl;
    uint64_t h = 1469598103934665603ULL;
    for (int i = 0; i < n; i++)
        h = (h ^ key[i]) * 1099511628211ULL;
    Memo *m = &s->memo[h & (MEMO_SLOTS - 1)];
    if (m->used && m->n == n && !memcmp(m->key, key, (size_t)n))
        return m->value;
    int value = closed_value_rec(s, ch, nc, lp, nl);
    m->used = 1;
    m->n = (uint8_t)n;
    m->value = (int16_t)value;
    memcpy(m->key, key, (size_t)n);
    return value;
}

/* Chains and loops sorted ascending; the opener picks the best to hand out. */
static int closed_value_rec(S *s, const uint8_t *ch, int nc, const uint8_t *lp, int nl)
{
    uint8_t rest[MAXB];
    int best = -INF;
    for (int i = 0; i < nc; i++) {
        if (i && ch[i] == ch[i - 1])
            continue;
        int n = ch[i];
        memcpy(rest, ch, (size_t)i);
        memcpy(rest + i, ch + i + 1, (size_t)(nc - i - 1));
        int f = closed_value(s, rest, nc - 1, lp, nl);
        int value = -(n + f);
        if (n > 2 && 4 - n + f < value)
            value = 4 - n + f;
        if (value > best)
            best = value;
    }
    for (int i = 0; i < nl; i++) {
        if (i && lp[i] == lp[i - 1])
            continue;
        int n = lp[i];
        memcpy(rest, lp, (size_t)i);
        memcpy(rest + i, lp + i + 1, (size_t)(nl - i - 1));
        int f = closed_value(s, ch, nc, rest, nl - 1);
        int value = -(n + f);
        if (8 - n + f < value)
            value = 8 - n + f;
        if (value > best)
            best = value;
    }
    return best;
}

static void sort_bytes(uint8_t *xs, int n)
{
    for (int i = 1; i < n; i++) {
        uint8_t x = xs[i];
        int j = i;
        for (; j > 0 && xs[j - 1] > x; j--)
            xs[j] = xs[j - 1];
        xs[j] = x;
    }
}

/* The value of closed components (none opened): search.py's closed_value(*_shape(comps)). */
static int shape_value(S *s, const Comp *comps, int n)
{
    uint8_t ch[MAXB], lp[MAXB];
    int nc = 0, nl = 0;
    for (int i = 0; i < n; i++) {
        if (comps[i].loop)
            lp[nl++] = comps[i].length;
        else
            ch[nc++] = comps[i].length;
    }
    sort_bytes(ch, nc);
    sort_bytes(lp, nl);
    return closed_value(s, ch, nc, lp, nl);
}

/* analysis.simple_endgame_value: no safe edge, no junction. */
static int simple_endgame_value(S *s, const Comp *comps, int n)
{
    uint8_t ch[MAXB], lp[MAXB];
    int nc = 0, nl = 0, total = 0;
    for (int i = 0; i < n; i++) {
        if (comps[i].loop)
            lp[nl++] = comps[i].length;
        else if (!comps[i].opened)
            ch[nc++] = comps[i].length;
        else
            total += comps[i].length;
    }
    sort_bytes(ch, nc);
    sort_bytes(lp, nl);
    int rest = closed_value(s, ch, nc, lp, nl);
    int best = total + rest;
    for (int i = 0; i < n; i++) {
        const Comp *c = &comps[i];
        if (c->loop || !c->opened)
            continue;
        int gift = (c->opened == 1 && c->length >= 2) ? 2 : (c->opened == 2 && c->length >= 4) ? 4 : 0;
        if (gift && total - 2 * gift - rest > best)
            best = total - 2 * gift - rest;
    }
    return best;
}

/* -- move generation -- */

static int strings_next(const S *s, int box, int not_edge, int *e, int *o)
{
    const GeoObject *g = s->g;
    for (int k = 0; k < 4; k++) {
        int x = g->around_e[box][k];
        if (x != not_edge && !s->drawn[x]) {
            *e = x;
            *o = g->around_o[box][k];
            return 1;
        }
    }
    return 0;
}

/* search.py's capture_moves: one free take, or take/decline at a decision. */
static int capture_moves(const S *s, int *moves)
{
    const GeoObject *g = s->g;
    struct {
        uint64_t set;
        int cost, take, decline;
    } dec[MAXB];
    int nd = 0;
    for (int c = 0; c < g->n_boxes; c++) {
        if (s->sides[c] != 3)
            continue;
        int take = -1, o = GROUND;
        strings_next(s, c, -1, &take, &o);
        int boxes[6], nb = 0;
        boxes[nb++] = c;
        int e = take, end_open = 0;
        for (;;) {
            if (o == GROUND || s->sides[o] <= 1) {
                end_open = 1;
                break;
            }
            boxes[nb++] = o;
            if (s->sides[o] == 3 || nb > 4)
                break;
            int e2 = -1, o2 = GROUND;
            strings_next(s, o, e, &e2, &o2);
            e = e2;
            o = o2;
        }
        uint64_t set = 0;
        for (int k = 0; k < nb; k++)
            set |= (uint64_t)1 << boxes[k];
        int cost, decline;
        if (end_open && nb == 2) {
            cost = 2;
            decline = e;
        } else if (!end_open && nb == 4 && s->sides[boxes[3]] == 3) {
            cost = 4;
            decline = -1;
            for (int k = 0; k < 4; k++)
                if (!s->drawn[g->around_e[boxes[1]][k]] && g->around_o[boxes[1]][k] == boxes[2])
                    decline = g->around_e[boxes[1]][k];
        } else {
            moves[0] = take;
            return 1;
        }
        int k;
        for (k = 0; k < nd && dec[k].set != set; k++)
            ;
        if (k == nd)
            nd++;
        dec[k].set = set;
        dec[k].cost = cost;
        dec[k].take = take;
        dec[k].decline = decline;
    }
    if (nd == 0)
        return 0;
    if (nd > 1) { /* take the costlier one to decline (largest (cost, take, decline)) */
        int best = 0;
        for (int k = 1; k < nd; k++) {
            if (dec[k].cost != dec[best].cost ? dec[k].cost > dec[best].cost
                : dec[k].take != dec[best].take ? dec[k].take > dec[best].take
                                                : dec[k].decline > dec[best].decline)
                best = k;
        }
        moves[0] = dec[best].take;
        return 1;
    }
    moves[0] = dec[0].take;
    moves[1] = dec[0].decline;
    return 2;
}

static int opening_move(const Comp *c)
{
    if (c->loop || c->length == 2)
        return c->inner0;
    for (int k = 0; k < 2; k++)
        if (c->ends[k] == END_BORDER)
            return c->end_edges[k];
    return c->end_edges[0];
}

/* The safe edges, then the hand-outs (short chains only while safe edges remain). */
static int quiet_moves(const Comp *comps, int nc, const int *safe, int ns, int *moves)
{
    int order[MAXB];
    for (int i = 0; i < nc; i++) { /* stable sort by (length, kind): chains before loops */
        int j = i;
        for (; j > 0; j--) {
            const Comp *a = &comps[order[j - 1]], *b = &comps[i];
            if (a->length < b->length || (a->length == b->length && a->loop <= b->loop))
                break;
            order[j] = order[j - 1];
        }
        order[j] = i;
    }
    int n = 0;
    for (int i = 0; i < ns; i++)
        moves[n++] = safe[i];
    uint8_t seen[2][MAXB + 1];
    memset(seen, 0, sizeof seen);
    for (int k = 0; k < nc; k++) {
        const Comp *c = &comps[order[k]];
        if (ns && (c->loop || c->length > 2))
            continue;
        if (c->loop || (c->ends[0] == END_BORDER && c->ends[1] == END_BORDER)) {
            if (seen[c->loop][c->length])
                continue; /* the same lone shape: the same outcome */
            seen[c->loop][c->length] = 1;
        }
        moves[n++] = opening_move(c);
    }
    return n;
}

/* -- evaluation -- */

static int evaluate(const S *s, const Comp *comps, int n)
{
    int long_chains = 0, loops = 0, long_boxes = 0, in_comps = 0;
    for (int i = 0; i < n; i++) {
        const Comp *c = &comps[i];
        in_comps += c->length;
        if (c->loop) {
            loops++;
            long_boxes += c->length;
        } else if (c->length >= 3) {
            long_chains++;
            long_boxes += c->length;
        }
    }
    int u = s->unclaimed, cv;
    if (long_chains || loops) {
        cv = long_boxes - 4 * long_chains - 8 * loops + (long_chains ? 4 : 8);
        cv += (u - in_comps) / 2; /* boxes still to settle (never negative) */
    } else {
        cv = u / 3;
    }
    int value = cv < u ? cv : u;
    if (value < 2)
        value = 2;
    int favoured = ((s->undrawn - u + long_chains) & 1) == 1;
    return favoured ? value : -value;
}

/* Python's round(total / n): halves to even. */
static int round_half_even(long long total, long long n)
{
    long long q = total / n, r = total % n;
    if (r < 0) {
        q--;
        r += n;
    }
    if (2 * r > n || (2 * r == n && (q & 1)))
        q++;
    return (int)q;
}

static int completion_value(S *s)
{
    const GeoObject *g = s->g;
    int cand[MAXE], done[MAXE];
    int n = safe_edges(s, cand);
    Comp comps[MAXB];
    long long total = 0;
    long long cost = 1 + n / 12;
    for (int p = 0; p < s->playouts; p++) {
        s->nodes += cost;
        shuffle(&s->rng, cand, n);
        int nd = 0;
        for (int k = 0; k < n; k++) {
            int i = cand[k];
            if (is_safe(s, i)) {
                s->drawn[i] = 1;
                done[nd++] = i;
                for (int j = 0; j < g->eb_n[i]; j++)
                    s->sides[g->eb[i][j]]++;
            }
        }
        int nc = components(s, comps);
        int value;
        if (all_closed(s)) {
            value = shape_value(s, comps, nc);
        } else {
            s->undrawn -= nd;
            value = evaluate(s, comps, nc);
            s->undrawn += nd;
        }
        total += (nd & 1) ? -value : value;
        for (int k = 0; k < nd; k++) {
            int i = done[k];
            s->drawn[i] = 0;
            for (int j = 0; j < g->eb_n[i]; j++)
                s->sides[g->eb[i][j]]--;
        }
    }
    return round_half_even(total, s->playouts);
}

/* -- alpha-beta -- */

static int now_past(const struct timespec *deadline)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec > deadline->tv_sec ||
           (ts.tv_sec == deadline->tv_sec && ts.tv_nsec > deadline->tv_nsec);
}

static Entry *probe(S *s)
{
    Entry *b = &s->slots[2 * (key_hash(s->key) & s->mask)];
    uint64_t lo = (uint64_t)s->key, hi = (uint64_t)(s->key >> 64);
    for (int k = 0; k < 2; k++)
        if (b[k].used && b[k].lo == lo && b[k].hi == hi)
            return &b[k];
    return NULL;
}

static void store(S *s, int depth, int flag, int value, int move)
{
    Entry *b = &s->slots[2 * (key_hash(s->key) & s->mask)];
    uint64_t lo = (uint64_t)s->key, hi = (uint64_t)(s->key >> 64);
    Entry *slot;
    if (b[0].used && b[0].lo == lo && b[0].hi == hi)
        slot = &b[0];
    else if (b[1].used && b[1].lo == lo && b[1].hi == hi)
        slot = &b[1];
    else if (!b[0].used || depth >= b[0].depth) {
        b[1] = b[0]; /* the deeper slot goes to the newer entry; the old one stays a while */
        slot = &b[0];
    } else
        slot = &b[1];
    slot->lo = lo;
    slot->hi = hi;
    slot->depth = (int16_t)depth;
    slot->flag = (uint8_t)flag;
    slot->value = (int16_t)value;
    slot->move = (uint8_t)move;
    slot->used = 1;
}

static int negamax(S *s, int depth, int alpha, int beta)
{
    if (++s->nodes > s->max_nodes) {
        s->aborted = 1;
        return 0;
    }
    if (s->has_deadline && s->nodes >= s->next_clock) {
        /* every 32 nodes or so (completions count several at once) */
        s->next_clock = s->nodes + 32;
        if (now_past(&s->deadline)) {
            s->aborted = s->stopped = 1;
            return 0;
        }
    }
    if (s->unclaimed == 0)
        return 0;
    Entry *entry = probe(s);
    int tt_move = -1;
    if (entry) {
        tt_move = entry->move == NO_MOVE ? -1 : entry->move;
        if (entry->depth >= depth) {
            if (entry->depth < EXACT_DEPTH)
                s->inexact++;
            int v = entry->value;
            if (entry->flag == EXACT || (entry->flag == LOWER && v >= beta) ||
                (entry->flag == UPPER && v <= alpha))
                return v;
        }
    }
    int moves[MAXE + MAXB];
    int nm, cost;
    if (has_capturable(s)) {
        nm = capture_moves(s, moves);
        cost = 0;
    } else {
        Comp comps[MAXB];
        int nc = components(s, comps);
        if (all_closed(s))
            return shape_value(s, comps, nc);
        if (depth <= 0) {
            s->inexact++;
            return s->playouts ? completion_value(s) : evaluate(s, comps, nc);
        }
        int safe[MAXE];
        int ns = safe_edges(s, safe);
        nm = quiet_moves(comps, nc, safe, ns, moves);
        cost = 1;
    }
    for (int k = 1; k < nm; k++)
        if (moves[k] == tt_move) {
            memmove(moves + 1, moves, (size_t)k * sizeof(int));
            moves[0] = tt_move;
            break;
        }
    long long inexact_before = s->inexact;
    int alpha0 = alpha, best = -INF, best_move = moves[0];
    for (int k = 0; k < nm; k++) {
        int i = moves[k];
        int claimed = push(s, i);
        int value = claimed ? claimed + negamax(s, depth - cost, alpha - claimed, beta - claimed)
                            : -negamax(s, depth - cost, -beta, -alpha);
        pop(s, i, claimed);
        if (s->aborted)
            return 0;
        if (value > best) {
            best = value;
            best_move = i;
            if (value > alpha) {
                alpha = value;
                if (alpha >= beta)
                    break;
            }
        }
    }
    int flag = best <= alpha0 ? UPPER : best >= beta ? LOWER : EXACT;
    store(s, s->inexact == inexact_before ? EXACT_DEPTH : depth, flag, best, best_move);
    return best;
}

/* Best move and value at depth; the first move wins ties.  s->aborted: unfinished. */
static void root(S *s, const int *moves, int nm, int depth, int *best_move, int *best_value)
{
    int best = -INF, move = moves[0], alpha = -INF, beta = INF;
    s->has_partial = 0;
    for (int k = 0; k < nm; k++) {
        int i = moves[k];
        int claimed = push(s, i);
        int value = claimed ? claimed + negamax(s, depth - 1, alpha - claimed, beta - claimed)
                            : -negamax(s, depth - 1, -beta, -alpha);
        pop(s, i, claimed);
        if (s->aborted)
            return;
        if (value > best) {
            best = value;
            move = i;
            if (value > alpha)
                alpha = value;
            s->has_partial = 1;
            s->partial_move = move;
            s->partial_value = best;
        }
    }
    *best_move = move;
    *best_value = best;
}

typedef struct {
    int edge, value, depth, exact, stopped;
    long long nodes;
} Result;

static int root_moves(S *s, int *moves)
{
    if (has_capturable(s))
        return capture_moves(s, moves);
    Comp comps[MAXB];
    int nc = components(s, comps);
    int safe[MAXE];
    int ns = safe_edges(s, safe);
    return quiet_moves(comps, nc, safe, ns, moves);
}

static Result run(S *s, u128 only, int has_only, int max_depth, Rng *order)
{
    Result r = {0, 0, 0, 0, 0, 0};
    int moves[MAXE + MAXB];
    int nm = root_moves(s, moves);
    if (has_only) {
        /* The search's own moves the solver did not rule out; if it ruled out all
         * of them, its candidates in edge order. */
        int n = 0;
        for (int k = 0; k < nm; k++)
            if (only & BIT(moves[k]))
                moves[n++] = moves[k];
        if (!n)
            for (int i = 0; i < s->g->n_edges; i++)
                if (only & BIT(i))
                    moves[n++] = i;
        nm = n;
    }
    /* The seed orders the safe moves; hand-outs stay last, smallest first. */
    int safe[MAXE + MAXB], rest[MAXE + MAXB], ns = 0, nr = 0;
    for (int k = 0; k < nm; k++) {
        if (is_safe(s, moves[k]))
            safe[ns++] = moves[k];
        else
            rest[nr++] = moves[k];
    }
    shuffle(order, safe, ns);
    memcpy(moves, safe, (size_t)ns * sizeof(int));
    memcpy(moves + ns, rest, (size_t)nr * sizeof(int));
    if (nm == 1) {
        r.edge = moves[0];
        return r;
    }
    if (!has_capturable(s) && all_closed(s)) {
        /* A simple endgame: value every hand-out exactly, no search needed. */
        int best = -INF, best_move = moves[0];
        Comp comps[MAXB];
        for (int k = 0; k < nm; k++) {
            int i = moves[k];
            int claimed = push(s, i), value;
            int nc = components(s, comps);
            if (s->unclaimed == 0)
                value = claimed;
            else if (claimed)
                value = claimed + simple_endgame_value(s, comps, nc);
            else
                value = -simple_endgame_value(s, comps, nc);
            pop(s, i, claimed);
            if (value > best) {
                best = value;
                best_move = i;
            }
        }
        r.edge = best_move;
        r.value = best;
        r.nodes = nm;
        r.exact = 1;
        return r;
    }
    int best_move = moves[0], best_value = 0, done_depth = 0, exact = 0;
    for (int depth = 1; depth <= max_depth; depth++) {
        long long inexact_before = s->inexact;
        int move = 0, value = 0;
        root(s, moves, nm, depth, &move, &value);
        if (s->aborted) {
            /* A move that beat the previous best at the unfinished depth is kept:
             * still deterministic, since nodes are counted, not seconds. */
            if (s->has_partial && done_depth && s->partial_move != moves[0]) {
                best_move = s->partial_move;
                best_value = s->partial_value;
            }
            break;
        }
        best_move = move;
        best_value = value;
        done_depth = depth;
        exact = s->inexact == inexact_before;
        for (int k = 1; k < nm; k++)
            if (moves[k] == move) {
                memmove(moves + 1, moves, (size_t)k * sizeof(int));
                moves[0] = move;
                break;
            }
        if (exact)
            break;
    }
    r.edge = best_move;
    r.value = best_value;
    r.depth = done_depth;
    r.nodes = s->nodes;
    r.exact = exact;
    r.stopped = s->stopped;
    return r;
}

/* -- the Python entry point ---------------------------------------------------------- */

static int edge_set(PyObject *bytes, int n_edges, u128 *out, const char *what)
{
    if (!PyBytes_Check(bytes) || PyBytes_GET_SIZE(bytes) != 16) {
        PyErr_Format(PyExc_TypeError, "%s: 16 bytes (a little-endian edge set)", what);
        return -1;
    }
    const unsigned char *p = (const unsigned char *)PyBytes_AS_STRING(bytes);
    u128 x = 0;
    for (int k = 15; k >= 0; k--)
        x = (x << 8) | p[k];
    if (n_edges < MAXE && (x >> n_edges)) {
        PyErr_Format(PyExc_ValueError, "%s: an edge beyond the board's %d", what, n_edges);
        return -1;
    }
    *out = x;
    return 0;
}

static PyObject *py_search(PyObject *module, PyObject *args, PyObject *kwds)
{
    (void)module;
    PyObject *geo_obj, *table_obj, *drawn_obj, *only_obj = Py_None, *seed_obj;
    long long max_nodes;
    double seconds = -1.0;
    int max_depth = 64, playouts = 0;
    static char *kwlist[] = {"geometry", "table", "drawn", "max_nodes", "seed", "seconds",
                             "max_depth", "playouts", "only", NULL};
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O!O!SLO|diiO", kwlist, &GeoType, &geo_obj,
                                     &TableType, &table_obj, &drawn_obj, &max_nodes, &seed_obj,
                                     &seconds, &max_depth, &playouts, &only_obj))
        return NULL;
    const GeoObject *g = (const GeoObject *)geo_obj;
    TableObject *table = (TableObject *)table_obj;
    if (!g->n_edges) {
        PyErr_SetString(PyExc_ValueError, "the geometry was not initialised");
        return NULL;
    }
    if (!table->slots) {
        PyErr_SetString(PyExc_ValueError, "the table was not initialised");
        return NULL;
    }
    if (playouts < 0) {
        PyErr_SetString(PyExc_ValueError, "playouts must not be negative");
        return NULL;
    }
    if (!PyLong_Check(seed_obj)) {
        PyErr_SetString(PyExc_TypeError, "seed must be an int");
        return NULL;
    }
    uint64_t seed = PyLong_AsUnsignedLongLongMask(seed_obj);
    if (seed == (uint64_t)-1 && PyErr_Occurred())
        return NULL;
    u128 drawn, only = 0;
    if (edge_set(drawn_obj, g->n_edges, &drawn, "drawn") < 0)
        return NULL;
    int has_only = only_obj != Py_None;
    if (has_only) {
        if (edge_set(only_obj, g->n_edges, &only, "only") < 0)
            return NULL;
        if (!only || (only & drawn)) {
            PyErr_SetString(PyExc_ValueError, "only: undrawn edges, at least one");
            return NULL;
        }
    }
    S *s = calloc(1, sizeof(S));
    if (!s)
        return PyErr_NoMemory();
    s->g = g;
    s->memo = calloc(MEMO_SLOTS, sizeof(Memo)); /* without it, only slower */
    for (int i = 0; i < g->n_edges; i++)
        if (drawn & BIT(i)) {
            s->drawn[i] = 1;
            for (int k = 0; k < g->eb_n[i]; k++)
                s->sides[g->eb[i][k]]++;
        } else
            s->undrawn++;
    for (int b = 0; b < g->n_boxes; b++)
        s->unclaimed += s->sides[b] < 4;
    if (!s->undrawn) {
        free(s->memo);
        free(s);
        PyErr_SetString(PyExc_ValueError, "the game is over: no edge is left to draw");
        return NULL;
    }
    s->key = drawn;
    s->max_nodes = max_nodes;
    s->next_clock = 0; /* the first node looks: the deadline may be gone already */
    s->playouts = playouts;
    s->slots = table->slots;
    s->mask = table->mask;
    if (seconds >= 0) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        double whole = (double)(long long)seconds;
        if (whole > 1e9)
            whole = 1e9;
        ts.tv_sec += (time_t)whole;
        ts.tv_nsec += (long)((seconds - whole) * 1e9);
        if (ts.tv_nsec >= 1000000000L) {
            ts.tv_sec++;
            ts.tv_nsec -= 1000000000L;
        }
        s->has_deadline = 1;
        s->deadline = ts;
    }
    Rng order;
    rng_seed(&order, seed, drawn, g->width, g->height, 1);
    rng_seed(&s->rng, seed, drawn, g->width, g->height, 2);
    if (table->busy) {
        free(s->memo);
        free(s);
        PyErr_SetString(PyExc_RuntimeError, "the table is in use by another search");
        return NULL;
    }
    table->busy = 1;
    Py_INCREF(geo_obj);
    Result r;
    Py_BEGIN_ALLOW_THREADS
    r = run(s, only, has_only, max_depth, &order);
    Py_END_ALLOW_THREADS
    Py_DECREF(geo_obj);
    table->busy = 0;
    free(s->memo);
    free(s);
    return Py_BuildValue("iiiLOO", r.edge, r.value, r.depth, r.nodes, r.exact ? Py_True : Py_False,
                         r.stopped ? Py_True : Py_False);
}

static PyMethodDef methods[] = {
    {"search", (PyCFunction)(void (*)(void))py_search, METH_VARARGS | METH_KEYWORDS,
     "search(geometry, table, drawn, max_nodes, seed, seconds=-1, max_depth=64, playouts=0, "
     "only=None) -> (edge index, value, depth, nodes, exact, stopped).\n\n"
     "drawn and only: 16-byte little-endian edge sets; seconds: to the deadline (<0: none);\n"
     "stopped: the deadline ended the search."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef moduledef = {
    PyModuleDef_HEAD_INIT, "dotsboxes.engine._native_search",
    "The heuristic search of dotsboxes.engine.search in C.", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__native_search(void)
{
    if (PyType_Ready(&GeoType) < 0 || PyType_Ready(&TableType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&moduledef);
    if (!m)
        return NULL;
    Py_INCREF(&GeoType);
    Py_INCREF(&TableType);
    if (PyModule_AddObject(m, "Geometry", (PyObject *)&GeoType) < 0 ||
        PyModule_AddObject(m, "Table", (PyObject *)&TableType) < 0 ||
        PyModule_AddIntConstant(m, "MAX_EDGES", MAXE) < 0 ||
        PyModule_AddIntConstant(m, "MAX_BOXES", MAXB) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
