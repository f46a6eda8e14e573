/*
 * dotsboxes.engine._native: the exact solver of dotsboxes/engine/solver.py in C11.
 *
 * The same game theory as the Python search, step for step (read solver.py's
 * docstrings for the why of each rule): forced captures and loony offers
 * (capture_plan), one opening per chain or loop, the long-chain caps, simple
 * loony endgames by Berlekamp's recursion, keys by symmetry, corner pairs and
 * lifted chains, MTD(f) with null windows, move ordering (table move, killer,
 * cheapest sacrifice, safe moves by history) and enhanced transposition
 * cutoffs.  Only the containers differ:
 *
 * - edge sets are 128-bit integers (unsigned __int128, GCC and Clang), box sets
 *   64-bit: boards with n_edges + corner flags <= 128 and boxes <= 63 (7 x 7,
 *   9 x 5, 8 x 6 ...); larger boards stay in Python;
 * - the transposition table is one fixed-size array of 4-entry buckets (it
 *   grows by doubling up to its size, then replaces the entry that guards the
 *   least work, preferring entries from earlier searches), not a dict;
 * - the key cache the enhanced transposition cutoff reads (drawn edges -> key)
 *   is a direct-mapped array.
 *
 * A key is the canonical edge set (<= 128 bits, exact) plus the lifted chains
 * packed exactly in 63 bits when they fit (up to 3 chains on 7 x 7, 4 on
 * 5 x 5); beyond that a 64-bit hash of the packed chains, flagged.
 *
 * Searches run with the GIL released under the table's lock; the node cap,
 * the deadline (CLOCK_MONOTONIC, as time.perf_counter on Linux) and pending
 * signals (Ctrl-C: KeyboardInterrupt) are checked inside the search.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include "pythread.h"

#include <stdint.h>
#include <string.h>
#include <time.h>
#ifdef __linux__
#include <sys/mman.h>
#endif

typedef unsigned __int128 u128;

#define MAXE 128
#define MAXB 63
#define MAXSYM 8
#define INF 1000
#define NO_CAP 127
#define NO_MOVE 255

static PyObject *OutOfBudget;


static inline int ctz128(u128 x)
{
    uint64_t lo = (uint64_t)x;
    return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((uint64_t)(x >> 64));
}

/* Portable popcount: the compiler's builtin becomes a library call without
 * -mpopcnt, and the extension is not built for one CPU. */
static inline int pop64(uint64_t x)
{
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
}

static inline int pop128(u128 x) { return pop64((uint64_t)x) + pop64((uint64_t)(x >> 64)); }

#define BIT(e) ((u128)1 << (e))

/* -- geometry --------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    int width, height, n_edges, n_boxes, n_bits, n_syms, n_pairs, n_chunks;
    int chain_bits, chain_shift;
    u128 full;
    u128 box_mask[MAXB];
    int edge_sum[MAXE];
    int n_links[MAXE];
    int link_box[MAXE][2];
    u128 around[MAXE];
    u128 pair_mask[8], pair_flag[8], pair_low[8], pair_high[8];
    uint8_t sym[MAXSYM][MAXE];
    uint8_t inv[MAXSYM][MAXE];
    uint8_t box_perm[MAXSYM][MAXB];
    u128 *chunks; /* [n_syms][n_chunks][256]: images of each byte of a position */
    uint64_t *narrow; /* the same in 64 bits, when n_bits <= 64 (boards to 5 x 5), else NULL */
} Geometry;

static int to_u128(PyObject *o, u128 *out)
{
    if (!PyLong_Check(o)) {
        PyErr_SetString(PyExc_TypeError, "an edge set must be an int");
        return -1;
    }
    PyObject *bits = PyObject_CallMethod(o, "bit_length", NULL);
    if (!bits)
        return -1;
    long n = PyLong_AsLong(bits);
    Py_DECREF(bits);
    int negative = PyObject_RichCompareBool(o, Py_False, Py_LT);
    if (negative < 0)
        return -1;
    if (negative || n > 128) {
        PyErr_SetString(PyExc_ValueError, "an edge set is a non-negative int of at most 128 bits");
        return -1;
    }
    uint64_t lo = PyLong_AsUnsignedLongLongMask(o);
    PyObject *shift = PyLong_FromLong(64);
    PyObject *high = shift ? PyNumber_Rshift(o, shift) : NULL;
    Py_XDECREF(shift);
    if (!high)
        return -1;
    uint64_t hi = PyLong_AsUnsignedLongLongMask(high);
    Py_DECREF(high);
    if (PyErr_Occurred())
        return -1;
    *out = ((u128)hi << 64) | lo;
    return 0;
}

/* A sequence of ints, each in [lo, hi], into out[n]. */
static int int_seq(PyObject *seq, int n, long lo, long hi, int *out, const char *what)
{
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast)
        return -1;
    if (PySequence_Fast_GET_SIZE(fast) != n) {
        PyErr_Format(PyExc_ValueError, "%s: expected %d items", what, n);
        Py_DECREF(fast);
        return -1;
    }
    for (int i = 0; i < n; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        if (v < lo || v > hi) {
            PyErr_Format(PyExc_ValueError, "%s: %ld out of range", what, v);
            Py_DECREF(fast);
            return -1;
        }
        out[i] = (int)v;
    }
    Py_DECREF(fast);
    return 0;
}

static int u128_seq(PyObject *seq, int n, u128 *out, const char *what)
{
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast)
        return -1;
    if (PySequence_Fast_GET_SIZE(fast) != n) {
        PyErr_Format(PyExc_ValueError, "%s: expected %d items", what, n);
        Py_DECREF(fast);
        return -1;
    }
    for (int i = 0; i < n; i++)
        if (to_u128(PySequence_Fast_GET_ITEM(fast, i), &out[i]) < 0) {
            Py_DECREF(fast);
            return -1;
        }
    Py_DECREF(fast);
    return 0;
}

/* A sequence of n_syms sequences of `len` ints in [0, hi]. */
static int perm_table(PyObject *seq, int n_syms, int len, int hi, uint8_t *out, int stride,
                      const char *what)
{
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast)
        return -1;
    if (PySequence_Fast_GET_SIZE(fast) != n_syms) {
        PyErr_Format(PyExc_ValueError, "%s: expected %d symmetries", what, n_syms);
        Py_DECREF(fast);
        return -1;
    }
    int tmp[MAXE + 8];
    for (int k = 0; k < n_syms; k++) {
        if (int_seq(PySequence_Fast_GET_ITEM(fast, k), len, 0, hi, tmp, what) < 0) {
            Py_DECREF(fast);
            return -1;
        }
        for (int i = 0; i < len; i++)
            out[k * stride + i] = (uint8_t)tmp[i];
    }
    Py_DECREF(fast);
    return 0;
}

static int bit_length(int n)
{
    int b = 0;
    while (n) {
        b++;
        n >>= 1;
    }
    return b;
}

static void Geometry_dealloc(Geometry *self)
{
    PyMem_Free(self->chunks);
    PyMem_Free(self->narrow);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* Geometry(width, height, n_edges, n_boxes, box_mask, edge_sum, edge_boxes,
 *          symmetries, inverses, box_perms, extended, pairs, pair_edges)
 * as in dotsboxes.engine._bits.Geometry (``extended``: the symmetries over the
 * edges plus the corner flags; ``pairs``: (two outer sides, flag bit) per corner). */
static int Geometry_init(Geometry *self, PyObject *args, PyObject *kwds)
{
    int w, h, ne, nb;
    PyObject *box_mask, *edge_sum, *edge_boxes, *syms, *invs, *box_perms, *extended, *pairs,
        *pair_edges;
    if (!PyArg_ParseTuple(args, "iiiiOOOOOOOOO", &w, &h, &ne, &nb, &box_mask, &edge_sum,
                          &edge_boxes, &syms, &invs, &box_perms, &extended, &pairs, &pair_edges))
        return -1;
    if (w < 1 || h < 1 || ne != w * (h + 1) + h * (w + 1) || nb != w * h) {
        PyErr_SetString(PyExc_ValueError, "inconsistent board size");
        return -1;
    }
    Py_ssize_t np = PySequence_Size(pairs);
    if (np < 0)
        return -1;
    if (nb > MAXB || ne + np > MAXE || np > 8) {
        PyErr_Format(PyExc_ValueError, "a %d x %d board is too large for the native solver", w,
                     h);
        return -1;
    }
    PyMem_Free(self->chunks);
    self->chunks = NULL;
    PyMem_Free(self->narrow);
    self->narrow = NULL;
    self->width = w;
    self->height = h;
    self->n_edges = ne;
    self->n_boxes = nb;
    self->n_pairs = (int)np;
    self->n_bits = ne + (int)np;
    self->n_chunks = (self->n_bits + 7) / 8;
    self->full = ne == 128 ? ~(u128)0 : BIT(ne) - 1;
    self->chain_bits = bit_length(nb);
    self->chain_shift = 2 * self->chain_bits + bit_length(nb) + 1;
    Py_ssize_t ns = PySequence_Size(syms);
    if (ns < 1 || ns > MAXSYM) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError, "symmetries: 1 to 8");
        return -1;
    }
    self->n_syms = (int)ns;
    if (u128_seq(box_mask, nb, self->box_mask, "box_mask") < 0)
        return -1;
    for (int b = 0; b < nb; b++)
        if (pop128(self->box_mask[b]) != 4 || (self->box_mask[b] & ~self->full)) {
            PyErr_SetString(PyExc_ValueError, "box_mask: four sides on the board");
            return -1;
        }
    if (int_seq(edge_sum, ne, -1, 2 * nb, self->edge_sum, "edge_sum") < 0)
        return -1;
    PyObject *fast = PySequence_Fast(edge_boxes, "edge_boxes");
    if (!fast)
        return -1;
    if (PySequence_Fast_GET_SIZE(fast) != ne) {
        PyErr_SetString(PyExc_ValueError, "edge_boxes: one per edge");
        Py_DECREF(fast);
        return -1;
    }
    for (int e = 0; e < ne; e++) {
        PyObject *item = PySequence_Fast_GET_ITEM(fast, e);
        Py_ssize_t n = PySequence_Size(item);
        if (n < 1 || n > 2 ||
            int_seq(item, (int)n, 0, nb - 1, self->link_box[e], "edge_boxes") < 0) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "edge_boxes: one or two boxes");
            Py_DECREF(fast);
            return -1;
        }
        self->n_links[e] = (int)n;
        u128 m = 0;
        for (int i = 0; i < n; i++) {
            if (!(self->box_mask[self->link_box[e][i]] & BIT(e))) {
                PyErr_SetString(PyExc_ValueError, "edge_boxes disagrees with box_mask");
                Py_DECREF(fast);
                return -1;
            }
            m |= self->box_mask[self->link_box[e][i]];
        }
        self->around[e] = m & ~BIT(e);
        /* edge_sum - box must be the other box or -1 */
        int expect = n == 2 ? self->link_box[e][0] + self->link_box[e][1]
                            : self->link_box[e][0] - 1;
        if (self->edge_sum[e] != expect) {
            PyErr_SetString(PyExc_ValueError, "edge_sum disagrees with edge_boxes");
            Py_DECREF(fast);
            return -1;
        }
    }
    Py_DECREF(fast);
    if (perm_table(syms, self->n_syms, ne, ne - 1, &self->sym[0][0], MAXE, "symmetries") < 0 ||
        perm_table(invs, self->n_syms, ne, ne - 1, &self->inv[0][0], MAXE, "inverses") < 0 ||
        perm_table(box_perms, self->n_syms, nb, nb - 1, &self->box_perm[0][0], MAXB,
                   "box_perms") < 0)
        return -1;
    uint8_t ext[MAXSYM][MAXE];
    if (perm_table(extended, self->n_syms, self->n_bits, self->n_bits - 1, &ext[0][0], MAXE,
                   "extended") < 0)
        return -1;
    fast = PySequence_Fast(pairs, "pairs");
    if (!fast)
        return -1;
    for (int k = 0; k < np; k++) {
        PyObject *item = PySequence_Fast_GET_ITEM(fast, k);
        if (!PyTuple_Check(item) || PyTuple_GET_SIZE(item) != 2 ||
            to_u128(PyTuple_GET_ITEM(item, 0), &self->pair_mask[k]) < 0 ||
            to_u128(PyTuple_GET_ITEM(item, 1), &self->pair_flag[k]) < 0) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "pairs: (mask, flag) tuples");
            Py_DECREF(fast);
            return -1;
        }
    }
    Py_DECREF(fast);
    fast = PySequence_Fast(pair_edges, "pair_edges");
    if (!fast)
        return -1;
    if (PySequence_Fast_GET_SIZE(fast) != np) {
        PyErr_SetString(PyExc_ValueError, "pair_edges: one per pair");
        Py_DECREF(fast);
        return -1;
    }
    for (int k = 0; k < np; k++) {
        PyObject *item = PySequence_Fast_GET_ITEM(fast, k);
        if (!PyTuple_Check(item) || PyTuple_GET_SIZE(item) != 2 ||
            to_u128(PyTuple_GET_ITEM(item, 0), &self->pair_low[k]) < 0 ||
            to_u128(PyTuple_GET_ITEM(item, 1), &self->pair_high[k]) < 0) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "pair_edges: (low, high) tuples");
            Py_DECREF(fast);
            return -1;
        }
    }
    Py_DECREF(fast);
    size_t n = (size_t)self->n_syms * self->n_chunks * 256;
    self->chunks = PyMem_Calloc(n, sizeof(u128));
    if (!self->chunks) {
        PyErr_NoMemory();
        return -1;
    }
    for (int k = 0; k < self->n_syms; k++)
        for (int j = 0; j < self->n_chunks; j++)
            for (int v = 0; v < 256; v++) {
                u128 image = 0;
                for (int bit = 0; bit < 8; bit++)
                    if ((v >> bit & 1) && 8 * j + bit < self->n_bits)
                        image |= BIT(ext[k][8 * j + bit]);
                self->chunks[((size_t)k * self->n_chunks + j) * 256 + v] = image;
            }
    /* Half the bytes to read, and 64-bit compares: canonical() is a tenth of the
     * search's time on 5 x 5 endgames. */
    if (self->n_bits <= 64) {
        self->narrow = PyMem_Calloc(n, sizeof(uint64_t));
        if (!self->narrow) {
            PyErr_NoMemory();
            return -1;
        }
        for (size_t i = 0; i < n; i++)
            self->narrow[i] = (uint64_t)self->chunks[i];
    }
    return 0;
}

static PyTypeObject GeometryType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "dotsboxes.engine._native.Geometry",
    .tp_basicsize = sizeof(Geometry),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Geometry_init,
    .tp_dealloc = (destructor)Geometry_dealloc,
    .tp_doc = "Fixed tables of one board size (from dotsboxes.engine._bits).",
};

/* The smallest image of s under the symmetries, after the corner-pair rewrite. */
static u128 canonical(const Geometry *g, u128 s, int *sym)
{
    for (int k = 0; k < g->n_pairs; k++) {
        u128 x = s & g->pair_mask[k];
        if (x && x != g->pair_mask[k])
            s ^= x | g->pair_flag[k];
    }
    if (g->narrow) {
        uint64_t s64 = (uint64_t)s, m64 = s64;
        int best = 0;
        for (int k = 1; k < g->n_syms; k++) {
            const uint64_t *t = g->narrow + (size_t)k * g->n_chunks * 256;
            uint64_t x = 0;
            for (int j = 0; j < g->n_chunks; j++, t += 256)
                x |= t[(s64 >> (8 * j)) & 255];
            if (x < m64) {
                m64 = x;
                best = k;
            }
        }
        *sym = best;
        return m64;
    }
    u128 m = s;
    int best = 0;
    for (int k = 1; k < g->n_syms; k++) {
        const u128 *t = g->chunks + (size_t)k * g->n_chunks * 256;
        u128 x = 0;
        for (int j = 0; j < g->n_chunks; j++)
            x |= t[j * 256 + (int)((s >> (8 * j)) & 255)];
        if (x < m) {
            m = x;
            best = k;
        }
    }
    *sym = best;
    return m;
}

/* -- the table -------------------------------------------------------------- */

typedef struct {
    u128 key;
    uint64_t chain;
    int8_t lo, hi;
    uint8_t move, used, left, gen, pad[2];
} Entry;

#define BUCKET 4 /* four 32-byte entries: two 64-byte cache lines */

typedef struct {
    u128 drawn, key;
    uint64_t chain;
    int8_t sym; /* -1: a simple loony endgame, valued `value` */
    int8_t value;
    uint8_t used, pad[5];
} KeyEntry;

#define KEYS_MAX ((size_t)1 << 18)
#define LOONY_MEMO 4096
#define LOONY_MAX 30

typedef struct {
    uint8_t n, used;
    int8_t value;
    uint8_t comp[LOONY_MAX];
} LoonyEntry;

typedef struct {
    PyObject_HEAD
    Entry *entries;
    size_t n_buckets, max_buckets, count;
    KeyEntry *keys;
    size_t n_keys;
    LoonyEntry *loony;
    int width, height; /* the board size it serves; 0 before the first search */
    uint8_t gen;
    PyThread_type_lock lock;
} Table;

static uint64_t mix64(uint64_t x)
{
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    x ^= x >> 31;
    return x;
}

static inline uint64_t hash_key(u128 key, uint64_t chain)
{
    return mix64((uint64_t)key ^ mix64((uint64_t)(key >> 64) ^ mix64(chain + 0x9e3779b97f4a7c15ULL)));
}

/* Buckets aligned on cache lines (C11 aligned_alloc), zeroed; NULL if out of memory. */
static void *alloc_zeroed(size_t bytes)
{
    /* Tables of 2 MB and more on huge pages where the kernel offers them: the
     * search reads them at random, and a TLB miss per read costs as much as
     * the cache miss. */
    size_t align = bytes >= ((size_t)2 << 20) ? ((size_t)2 << 20) : 64;
    bytes = (bytes + align - 1) / align * align;
    void *p = aligned_alloc(align, bytes);
    if (!p)
        return NULL;
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (align > 64)
        madvise(p, bytes, MADV_HUGEPAGE);
#endif
    memset(p, 0, bytes);
    return p;
}

static Entry *alloc_entries(size_t n_buckets)
{
    return alloc_zeroed(n_buckets * BUCKET * sizeof(Entry));
}

static void Table_free(Table *t)
{
    free(t->entries);
    free(t->keys);
    PyMem_RawFree(t->loony);
    t->entries = NULL;
    t->keys = NULL;
    t->loony = NULL;
    t->n_buckets = t->count = t->n_keys = 0;
}

static void Table_dealloc(Table *self)
{
    Table_free(self);
    if (self->lock)
        PyThread_free_lock(self->lock);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* Table(max_entries): room for at most max_entries bounds (rounded down to a
 * power of two of buckets), plus a key cache of a quarter as many entries
 * (at most 2**18, 12 MB). */
static int Table_init(Table *self, PyObject *args, PyObject *kwds)
{
    long long max_entries;
    if (!PyArg_ParseTuple(args, "L", &max_entries))
        return -1;
    if (max_entries < 64) {
        PyErr_SetString(PyExc_ValueError, "a table holds at least 64 entries");
        return -1;
    }
    Table_free(self);
    size_t b = 16;
    while (b * 2 * BUCKET <= (unsigned long long)max_entries)
        b *= 2;
    self->max_buckets = b;
    self->width = self->height = 0;
    if (!self->lock) {
        self->lock = PyThread_allocate_lock();
        if (!self->lock) {
            PyErr_NoMemory();
            return -1;
        }
    }
    return 0;
}

/* Memory for a search of a w x h board (GIL held). */
static int Table_bind(Table *t, int w, int h)
{
    if (t->width && (t->width != w || t->height != h)) {
        PyErr_Format(PyExc_ValueError,
                     "this table serves %d x %d boards, not %d x %d: use one table per size",
                     t->width, t->height, w, h);
        return -1;
    }
    if (!t->entries) {
        /* Small at first (a fresh table per search is common, and cheap): both grow
         * with what the search stores. */
        size_t b = t->max_buckets < 1024 ? t->max_buckets : 1024;
        size_t k = 2048;
        t->entries = alloc_entries(b);
        t->keys = alloc_zeroed(k * sizeof(KeyEntry));
        t->loony = PyMem_RawCalloc(LOONY_MEMO, sizeof(LoonyEntry));
        if (!t->entries || !t->keys || !t->loony) {
            Table_free(t);
            PyErr_NoMemory();
            return -1;
        }
        t->n_buckets = b;
        t->n_keys = k;
        t->count = 0;
    }
    t->width = w;
    t->height = h;
    return 0;
}

static inline Entry *bucket_of(Table *t, u128 key, uint64_t chain)
{
    return t->entries + (hash_key(key, chain) & (t->n_buckets - 1)) * BUCKET;
}

static Entry *probe(Table *t, u128 key, uint64_t chain)
{
    Entry *b = bucket_of(t, key, chain);
    for (int i = 0; i < BUCKET; i++)
        if (b[i].used && b[i].key == key && b[i].chain == chain)
            return &b[i];
    return NULL;
}

/* Double the buckets (no GIL: raw allocator); 0 if out of memory (then the
 * table just stays at its size). */
static int grow(Table *t)
{
    size_t nb = t->n_buckets * 2;
    Entry *fresh = alloc_entries(nb);
    if (!fresh)
        return 0;
    for (size_t i = 0; i < t->n_buckets * BUCKET; i++) {
        Entry *e = &t->entries[i];
        if (!e->used)
            continue;
        /* An old bucket splits in two: its four entries always find room. */
        Entry *b = fresh + (hash_key(e->key, e->chain) & (nb - 1)) * BUCKET;
        for (int j = 0; j < BUCKET; j++)
            if (!b[j].used) {
                b[j] = *e;
                break;
            }
    }
    free(t->entries);
    t->entries = fresh;
    t->n_buckets = nb;
    /* The key cache keeps a quarter as many entries (at most 2**18): it is a
     * cache, so the bigger one starts empty. */
    if (t->n_keys < nb * BUCKET && t->n_keys < KEYS_MAX) {
        KeyEntry *keys = alloc_zeroed(t->n_keys * 2 * sizeof(KeyEntry));
        if (keys) {
            free(t->keys);
            t->keys = keys;
            t->n_keys *= 2;
        }
    }
    return 1;
}

static void store(Table *t, u128 key, uint64_t chain, int lo, int hi, int move, int left)
{
    Entry *e = probe(t, key, chain);
    if (!e) {
        if (t->count * 2 >= t->n_buckets * BUCKET && t->n_buckets < t->max_buckets)
            grow(t);
        Entry *b = t->entries + (hash_key(key, chain) & (t->n_buckets - 1)) * BUCKET;
        int worst = INF;
        for (int i = 0; i < BUCKET; i++) {
            if (!b[i].used) {
                e = &b[i];
                t->count++;
                break;
            }
            /* Keep what guards more work (more boxes left), and this search's entries. */
            int score = b[i].left + (b[i].gen == t->gen ? 128 : 0);
            if (score < worst) {
                worst = score;
                e = &b[i];
            }
        }
        e->key = key;
        e->chain = chain;
        e->used = 1;
    }
    e->lo = (int8_t)lo;
    e->hi = (int8_t)hi;
    e->move = (uint8_t)move;
    e->left = (uint8_t)left;
    e->gen = t->gen;
}

static inline KeyEntry *key_slot(Table *t, u128 drawn)
{
    return &t->keys[mix64((uint64_t)drawn ^ mix64((uint64_t)(drawn >> 64))) & (t->n_keys - 1)];
}

static PyObject *Table_clear(Table *self, PyObject *unused)
{
    /* Under the lock: a search in another thread may be using it. */
    Py_BEGIN_ALLOW_THREADS
    PyThread_acquire_lock(self->lock, WAIT_LOCK);
    Py_END_ALLOW_THREADS
    Table_free(self);
    self->width = self->height = 0;
    PyThread_release_lock(self->lock);
    Py_RETURN_NONE;
}

static Py_ssize_t Table_len(Table *self) { return (Py_ssize_t)self->count; }

static PyObject *Table_get_capacity(Table *self, void *c)
{
    return PyLong_FromSize_t(self->max_buckets * BUCKET);
}

static PyObject *Table_get_bytes(Table *self, void *c)
{
    return PyLong_FromSize_t(self->n_buckets * BUCKET * sizeof(Entry) +
                             self->n_keys * sizeof(KeyEntry) +
                             (self->loony ? LOONY_MEMO * sizeof(LoonyEntry) : 0));
}

static PyMethodDef Table_methods[] = {
    {"clear", (PyCFunction)Table_clear, METH_NOARGS, "Forget everything."},
    {NULL},
};

static PyGetSetDef Table_getset[] = {
    {"capacity", (getter)Table_get_capacity, NULL, "Most bounds it holds.", NULL},
    {"bytes", (getter)Table_get_bytes, NULL, "Memory it holds now.", NULL},
    {NULL},
};

static PySequenceMethods Table_as_sequence = {.sq_length = (lenfunc)Table_len};

static PyTypeObject TableType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "dotsboxes.engine._native.Table",
    .tp_basicsize = sizeof(Table),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Table_init,
    .tp_dealloc = (destructor)Table_dealloc,
    .tp_methods = Table_methods,
    .tp_getset = Table_getset,
    .tp_as_sequence = &Table_as_sequence,
    .tp_doc = "A fixed-size transposition table for one board size.",
};

/* -- loony endgames ---------------------------------------------------------- */

/* comp: sorted (kind << 6 | boxes), kind 1 for a loop; see solver.loony_value. */
static int loony_value(Table *t, const uint8_t *comp, int n)
{
    if (!n)
        return 0;
    LoonyEntry *slot = NULL;
    if (n <= LOONY_MAX) {
        uint64_t h = 0x12345;
        for (int i = 0; i < n; i++)
            h = mix64(h ^ comp[i]);
        slot = &t->loony[h & (LOONY_MEMO - 1)];
        if (slot->used && slot->n == n && !memcmp(slot->comp, comp, n))
            return slot->value;
    }
    int best = -INF;
    uint8_t rest[MAXB];
    for (int i = 0; i < n; i++) {
        if (i && comp[i - 1] == comp[i])
            continue; /* opening an equal component again gives the same value */
        memcpy(rest, comp, i);
        memcpy(rest + i, comp + i + 1, n - i - 1);
        int r = loony_value(t, rest, n - 1);
        int kind = comp[i] >> 6, len = comp[i] & 63, ctrl;
        if (kind == 1)
            ctrl = len + r > len - 8 - r ? len + r : len - 8 - r;
        else if (len <= 2)
            ctrl = len + r;
        else
            ctrl = len + r > len - 4 - r ? len + r : len - 4 - r;
        if (-ctrl > best)
            best = -ctrl;
    }
    if (slot) {
        slot->used = 1;
        slot->n = (uint8_t)n;
        slot->value = (int8_t)best;
        memcpy(slot->comp, comp, n);
    }
    return best;
}

/* -- the search -------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD
    Geometry *g;
    Table *t;
    u128 root_drawn;
    uint64_t root_two, root_three;
    int root_left;
    uint64_t history[MAXE];
    int killers[MAXE + 1];
    unsigned long long nodes, max_nodes; /* max_nodes 0: no cap */
    double deadline;                     /* < 0: none */
    int stop;                            /* 1 out of budget, 2 a Python exception (a signal) */
    PyThreadState *ts;
} Search;

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static inline int play(const Geometry *g, u128 *drawn, uint64_t *two, uint64_t *three, int e)
{
    *drawn |= BIT(e);
    int claimed = 0;
    for (int i = 0; i < g->n_links[e]; i++) {
        int b = g->link_box[e][i];
        uint64_t bit = (uint64_t)1 << b;
        int c = pop128(*drawn & g->box_mask[b]);
        if (c == 2)
            *two |= bit;
        else if (c == 3) {
            *two ^= bit;
            *three |= bit;
        } else if (c == 4) {
            *three ^= bit;
            claimed++;
        }
    }
    return claimed;
}

/* solver._Search.capture_plan: fills forced (returns its length), or takes and decline. */
static int capture_plan(const Geometry *g, u128 drawn, uint64_t two, uint64_t three,
                        int *forced, int *takes, int *n_takes, int *decline)
{
    uint64_t t = three;
    int path[MAXB + 2];
    *n_takes = 0;
    *decline = -1;
    while (t) {
        int b = __builtin_ctzll(t);
        t &= t - 1;
        int e = ctz128(g->box_mask[b] & ~drawn);
        int c = g->edge_sum[e] - b;
        if (c < 0 || !(two >> c & 1)) {
            forced[0] = e;
            return 1;
        }
        int n = 0, length = 2, prev = e, cur = c, closed;
        path[n++] = e;
        for (;;) {
            int f = ctz128(g->box_mask[cur] & ~drawn & ~BIT(prev));
            path[n++] = f;
            int d = g->edge_sum[f] - cur;
            if (d < 0 || !((two | three) >> d & 1)) {
                closed = 0;
                break;
            }
            length++;
            if (three >> d & 1) {
                closed = 1;
                t &= ~((uint64_t)1 << d);
                break;
            }
            prev = f;
            cur = d;
        }
        int take = -1;
        if (closed) {
            if (length != 4)
                take = length == 3 ? 2 : length - 4;
        } else if (length != 2)
            take = length - 2;
        if (take >= 0) {
            memcpy(forced, path, take * sizeof(int));
            return take;
        }
        takes[(*n_takes)++] = e;
        *decline = path[1];
    }
    if (*n_takes > 1)
        *decline = -1;
    return 0;
}

typedef struct {
    int size, kind, opening, a, b;
} Comp;

static int comp_less(const Comp *x, const Comp *y)
{
    if (x->size != y->size)
        return x->size < y->size;
    if (x->kind != y->kind)
        return x->kind < y->kind;
    if (x->opening != y->opening)
        return x->opening < y->opening;
    if (x->a != y->a)
        return x->a < y->a;
    return x->b < y->b;
}

typedef struct {
    int loony; /* 1: a simple loony endgame of value `value` */
    int value;
    u128 key;
    uint64_t chain;
    int sym;
    int n_open, n_first, n_later;
    uint8_t openings[MAXB];
    int8_t caps[MAXB];
    uint8_t first[MAXE], later[MAXE];
} Quiet;

/* quiet()'s moves: safe moves (one of each corner's two outer sides), those that
 * give a box its second side first, and one opening per chain or loop. */
static inline void quiet_moves(const Geometry *g, u128 drawn, u128 safe, const Comp *found,
                               int n_found, Quiet *q)
{
    for (int k = 0; k < g->n_pairs; k++)
        if ((safe & g->pair_low[k]) && (safe & g->pair_high[k]))
            safe ^= g->pair_high[k];
    q->n_first = q->n_later = 0;
    for (; safe; safe &= safe - 1) {
        int e = ctz128(safe);
        if (drawn & g->around[e])
            q->first[q->n_first++] = (uint8_t)e;
        else
            q->later[q->n_later++] = (uint8_t)e;
    }
    q->n_open = n_found;
    for (int i = 0; i < n_found; i++) {
        q->openings[i] = (uint8_t)found[i].opening;
        q->caps[i] = found[i].size >= 3 ? (found[i].kind == 0 ? 2 : 4) - found[i].size : NO_CAP;
    }
}

/* solver._Search._quiet_key: key, symmetry, openings (with their caps) and safe moves. */
static void quiet(Table *tb, const Geometry *g, u128 drawn, uint64_t two, int left, Quiet *q,
                  int want_key)
{
    u128 undrawn = g->full & ~drawn;
    u128 unsafe = 0;
    for (uint64_t t = two; t; t &= t - 1)
        unsafe |= g->box_mask[__builtin_ctzll(t)];
    u128 safe = undrawn & ~unsafe;
    Comp found[MAXB];
    int n_found = 0;
    uint64_t seen = 0;
    for (uint64_t t = two; t; t &= t - 1) {
        uint64_t low = t & -t;
        if (seen & low)
            continue;
        int b = __builtin_ctzll(t);
        uint64_t members = low;
        u128 ways = g->box_mask[b] & undrawn;
        int e1 = ctz128(ways);
        int e2 = ctz128(ways & ~BIT(e1));
        int prev = e1, cur = g->edge_sum[e1] - b, steps1 = 0;
        while (cur >= 0 && (two >> cur & 1) && cur != b) {
            members |= (uint64_t)1 << cur;
            steps1++;
            prev = ctz128((g->box_mask[cur] & undrawn) ^ BIT(prev));
            cur = g->edge_sum[prev] - cur;
        }
        Comp c;
        if (cur == b) {
            seen |= members;
            c = (Comp){pop64(members), 1, e1, -1, -1};
        } else {
            int end1 = prev, meet1 = cur, steps2 = 0;
            prev = e2;
            cur = g->edge_sum[e2] - b;
            while (cur >= 0 && (two >> cur & 1)) {
                members |= (uint64_t)1 << cur;
                steps2++;
                prev = ctz128((g->box_mask[cur] & undrawn) ^ BIT(prev));
                cur = g->edge_sum[prev] - cur;
            }
            seen |= members;
            int size = steps1 + steps2 + 1;
            if (size == 2)
                c = (Comp){2, 0, steps1 ? e1 : e2, meet1, cur};
            else
                c = (Comp){size, 0, end1, meet1, cur};
        }
        int i = n_found++;
        while (i && comp_less(&c, &found[i - 1])) {
            found[i] = found[i - 1];
            i--;
        }
        found[i] = c;
    }
    q->loony = 0;
    if (!safe && pop64(two) == left) {
        uint8_t comp[MAXB];
        for (int i = 0; i < n_found; i++) {
            uint8_t v = (uint8_t)(found[i].kind << 6 | found[i].size);
            int j = i;
            while (j && comp[j - 1] > v) {
                comp[j] = comp[j - 1];
                j--;
            }
            comp[j] = v;
        }
        q->loony = 1;
        q->value = loony_value(tb, comp, n_found);
        return;
    }
    if (!want_key) {
        quiet_moves(g, drawn, safe, found, n_found, q);
        return;
    }
    if (!n_found) {
        q->key = canonical(g, drawn, &q->sym);
        q->chain = 0;
        __builtin_prefetch(bucket_of(tb, q->key, q->chain));
        quiet_moves(g, drawn, safe, found, n_found, q);
        return;
    }
    q->key = canonical(g, drawn | (undrawn & unsafe), &q->sym);
    const uint8_t *image = g->box_perm[q->sym];
    int width = g->chain_bits;
    uint64_t lifted[MAXB];
    for (int i = 0; i < n_found; i++) {
        uint64_t a = found[i].a >= 0 ? image[found[i].a] + 1u : 0;
        uint64_t b = found[i].b >= 0 ? image[found[i].b] + 1u : 0;
        if (a > b) {
            uint64_t x = a;
            a = b;
            b = x;
        }
        uint64_t c = ((((uint64_t)found[i].size << 1 | found[i].kind) << width | a) << width) | b;
        int j = i;
        while (j && lifted[j - 1] > c) {
            lifted[j] = lifted[j - 1];
            j--;
        }
        lifted[j] = c;
    }
    if (n_found * g->chain_shift <= 63) {
        uint64_t packed = 0;
        for (int i = 0; i < n_found; i++)
            packed = packed << g->chain_shift | lifted[i];
        q->chain = packed;
    } else {
        uint64_t h = 0x5eed;
        for (int i = 0; i < n_found; i++)
            h = mix64(h ^ lifted[i]);
        q->chain = h | (uint64_t)1 << 63;
    }
    /* The search probes the table next: the line is on its way while the moves
     * are listed. */
    __builtin_prefetch(bucket_of(tb, q->key, q->chain));
    quiet_moves(g, drawn, safe, found, n_found, q);
}

static void check_budget(Search *s)
{
    if (s->max_nodes && s->nodes > s->max_nodes)
        s->stop = 1;
    else if (!(s->nodes & 1023) && s->deadline >= 0 && now() > s->deadline)
        s->stop = 1;
    else if (!(s->nodes & 0xffff) && s->ts) {
        PyEval_RestoreThread(s->ts);
        if (PyErr_CheckSignals() < 0)
            s->stop = 2;
        s->ts = PyEval_SaveThread();
    }
}

typedef struct {
    uint8_t e;
    int8_t cap;
} Move;

static int search(Search *s, u128 drawn, uint64_t two, uint64_t three, int left, int alpha,
                  int beta)
{
    const Geometry *g = s->g;
    Table *tb = s->t;
    s->nodes++;
    if (!(s->nodes & 63))
        check_budget(s);
    if (s->stop)
        return 0;
    int gain = 0, n_takes = 0, decline = -1;
    int takes[MAXB], forced[MAXB + 2];
    while (three) {
        int n_forced = capture_plan(g, drawn, two, three, forced, takes, &n_takes, &decline);
        if (!n_forced)
            break;
        for (int i = 0; i < n_forced; i++)
            gain += play(g, &drawn, &two, &three, forced[i]);
    }
    if (!three)
        n_takes = 0;
    left -= gain;
    if (!left)
        return gain;
    alpha -= gain;
    beta -= gain;
    if (alpha >= left)
        return gain + left;
    if (beta <= -left)
        return gain - left;
    Quiet q;
    int moves_known = 1;
    if (n_takes) {
        q.key = canonical(g, drawn, &q.sym);
        q.chain = 0;
    } else {
        /* A position seen before: its key from the cache, and its moves only if the
         * table does not settle it (as the Python core's keys dict). */
        KeyEntry *k = key_slot(tb, drawn);
        if (k->used && k->drawn == drawn) {
            if (k->sym < 0)
                return gain + k->value;
            q.key = k->key;
            q.chain = k->chain;
            q.sym = k->sym;
            moves_known = 0;
        } else {
            quiet(tb, g, drawn, two, left, &q, 1);
            k->drawn = drawn;
            k->used = 1;
            if (q.loony) {
                k->sym = -1;
                k->value = (int8_t)q.value;
                return gain + q.value;
            }
            k->key = q.key;
            k->chain = q.chain;
            k->sym = (int8_t)q.sym;
        }
    }
    Entry *entry = probe(tb, q.key, q.chain);
    int alpha0 = alpha, beta0 = beta, hint = -1, elo = 0, ehi = 0;
    if (entry) {
        elo = entry->lo;
        ehi = entry->hi;
        if (elo >= beta || elo == ehi)
            return gain + elo;
        if (ehi <= alpha)
            return gain + ehi;
        if (elo > alpha)
            alpha = elo;
        if (ehi < beta)
            beta = ehi;
        if (entry->move != NO_MOVE && entry->move < g->n_edges)
            hint = g->inv[q.sym][entry->move];
    }
    int best = -INF, move = -1;
    if (!moves_known)
        quiet(tb, g, drawn, two, left, &q, 0);
    if (n_takes) {
        int broke = 0;
        for (int i = 0; i < n_takes; i++) {
            u128 d = drawn;
            uint64_t t2 = two, t3 = three;
            int k = play(g, &d, &t2, &t3, takes[i]);
            int a = alpha > best ? alpha : best;
            int v = k + search(s, d, t2, t3, left - k, a - k, beta - k);
            if (s->stop)
                return 0;
            if (v > best) {
                best = v;
                if (best >= beta) {
                    broke = 1;
                    break;
                }
            }
        }
        if (!broke && decline >= 0) {
            u128 d = drawn;
            uint64_t t2 = two, t3 = three;
            play(g, &d, &t2, &t3, decline);
            int a = alpha > best ? alpha : best;
            int v = -search(s, d, t2, t3, left, -beta, -a);
            if (s->stop)
                return 0;
            if (v > best)
                best = v;
        }
    } else {
        /* Enhanced transposition cutoff: a safe move whose position the table
         * already knows to be bad enough for the opponent. */
        int cut = 0;
        KeyEntry *slots[MAXE];
        {
            /* The lookups are cache misses: ask for all the lines at once. */
            int n = 0;
            for (int grp = 0; grp < 2; grp++) {
                const uint8_t *list = grp ? q.later : q.first;
                int m = grp ? q.n_later : q.n_first;
                for (int i = 0; i < m; i++) {
                    slots[n] = key_slot(tb, drawn | BIT(list[i]));
                    __builtin_prefetch(slots[n++]);
                }
            }
            /* and for the table lines of the children the key cache knows */
            n = 0;
            for (int grp = 0; grp < 2; grp++) {
                const uint8_t *list = grp ? q.later : q.first;
                int m = grp ? q.n_later : q.n_first;
                for (int i = 0; i < m; i++, n++) {
                    KeyEntry *k = slots[n];
                    if (k->used && k->sym >= 0 && k->drawn == (drawn | BIT(list[i])))
                        __builtin_prefetch(bucket_of(tb, k->key, k->chain));
                }
            }
        }
        for (int grp = 0, at = 0; grp < 2 && !cut; grp++) {
            const uint8_t *list = grp ? q.later : q.first;
            int n = grp ? q.n_later : q.n_first;
            for (int i = 0; i < n; i++) {
                u128 d = drawn | BIT(list[i]);
                KeyEntry *k = slots[at++];
                if (!k->used || k->drawn != d)
                    continue;
                int v;
                if (k->sym < 0)
                    v = -k->value;
                else {
                    Entry *child = probe(tb, k->key, k->chain);
                    if (!child)
                        continue;
                    v = -child->hi;
                }
                if (v >= beta) {
                    best = v;
                    move = list[i];
                    cut = 1;
                    break;
                }
            }
        }
        if (!cut) {
            Move moves[MAXE];
            int n = 0;
            if (q.n_open)
                moves[n++] = (Move){q.openings[0], q.caps[0]};
            for (int grp = 0; grp < 2; grp++) {
                const uint8_t *list = grp ? q.later : q.first;
                int m = grp ? q.n_later : q.n_first, start = n;
                for (int i = 0; i < m; i++) {
                    /* stable insertion by history, highest first */
                    Move mv = {list[i], NO_CAP};
                    int j = n++;
                    while (j > start && s->history[moves[j - 1].e] < s->history[mv.e]) {
                        moves[j] = moves[j - 1];
                        j--;
                    }
                    moves[j] = mv;
                }
            }
            for (int i = 1; i < q.n_open; i++)
                moves[n++] = (Move){q.openings[i], q.caps[i]};
            int depth = pop128(drawn);
            int front[2] = {s->killers[depth], hint};
            for (int f = 0; f < 2; f++) {
                int x = front[f];
                if (x < 0 || !n || x == moves[0].e)
                    continue;
                for (int i = 1; i < n; i++)
                    if (moves[i].e == x) {
                        Move mv = moves[i];
                        memmove(moves + 1, moves, i * sizeof(Move));
                        moves[0] = mv;
                        break;
                    }
            }
            for (int i = 0; i < n; i++) {
                int e = moves[i].e;
                if (moves[i].cap != NO_CAP && moves[i].cap <= best)
                    continue;
                u128 d = drawn;
                uint64_t t2 = two, t3 = three;
                play(g, &d, &t2, &t3, e);
                int a = alpha > best ? alpha : best;
                int v = -search(s, d, t2, t3, left, -beta, -a);
                if (s->stop)
                    return 0;
                if (v > best) {
                    best = v;
                    move = e;
                    if (best >= beta) {
                        s->history[e] += (uint64_t)left * left;
                        s->killers[depth] = e;
                        break;
                    }
                }
            }
        }
    }
    int stored = move >= 0 ? g->sym[q.sym][move] : NO_MOVE;
    if (best <= alpha0)
        store(tb, q.key, q.chain, entry ? elo : -left, best, stored, left);
    else if (best >= beta0)
        store(tb, q.key, q.chain, best, entry ? ehi : left, stored, left);
    else
        store(tb, q.key, q.chain, best, best, stored, left);
    return gain + best;
}

/* -- the Search object ------------------------------------------------------- */

static void Search_dealloc(Search *self)
{
    Py_XDECREF(self->g);
    Py_XDECREF(self->t);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

/* Search(table, geometry, drawn, budget=None, max_nodes=None) */
static int Search_init(Search *self, PyObject *args, PyObject *kwds)
{
    static char *kwlist[] = {"table", "geometry", "drawn", "budget", "max_nodes", NULL};
    PyObject *table, *geo, *drawn, *budget = Py_None, *max_nodes = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kwds, "O!O!O|OO", kwlist, &TableType, &table,
                                     &GeometryType, &geo, &drawn, &budget, &max_nodes))
        return -1;
    Geometry *g = (Geometry *)geo;
    if (!g->chunks) {
        PyErr_SetString(PyExc_ValueError, "geometry not initialised");
        return -1;
    }
    u128 d;
    if (to_u128(drawn, &d) < 0)
        return -1;
    if (d & ~g->full) {
        PyErr_Format(PyExc_ValueError, "edge set has edges beyond the %d of a %d x %d board",
                     g->n_edges, g->width, g->height);
        return -1;
    }
    self->deadline = -1;
    if (budget != Py_None) {
        double b = PyFloat_AsDouble(budget);
        if (b == -1 && PyErr_Occurred())
            return -1;
        self->deadline = now() + (b > 0 ? b : 0);
    }
    self->max_nodes = 0;
    if (max_nodes != Py_None) {
        long long m = PyLong_AsLongLong(max_nodes);
        if (m == -1 && PyErr_Occurred())
            return -1;
        if (m < 0) {
            PyErr_SetString(PyExc_ValueError, "max_nodes must not be negative");
            return -1;
        }
        self->max_nodes = m ? (unsigned long long)m : 1; /* 0 nodes: stop at once */
    }
    Table *t = (Table *)table;
    Py_BEGIN_ALLOW_THREADS
    PyThread_acquire_lock(t->lock, WAIT_LOCK);
    Py_END_ALLOW_THREADS
    int bound = Table_bind(t, g->width, g->height);
    PyThread_release_lock(t->lock);
    if (bound < 0)
        return -1;
    Py_INCREF(geo);
    Py_XSETREF(self->g, g);
    Py_INCREF(table);
    Py_XSETREF(self->t, t);
    self->root_drawn = d;
    self->root_two = self->root_three = 0;
    int left = 0;
    for (int b = 0; b < g->n_boxes; b++) {
        int c = pop128(d & g->box_mask[b]);
        if (c == 2)
            self->root_two |= (uint64_t)1 << b;
        else if (c == 3)
            self->root_three |= (uint64_t)1 << b;
        if (c < 4)
            left++;
    }
    self->root_left = left;
    memset(self->history, 0, sizeof self->history);
    for (int i = 0; i <= MAXE; i++)
        self->killers[i] = -1;
    self->nodes = 0;
    return 0;
}

/* Run f with the GIL released and the table locked; NULL with an exception set
 * if out of budget, interrupted, or the table was cleared for another size. */
typedef struct {
    int kind, e, guess, target;
    int out[2];
} Job;

static int mtdf(Search *s, u128 d, uint64_t two, uint64_t three, int left, int g)
{
    int lo = -INF, hi = INF;
    while (lo < hi) {
        int beta = g == lo ? g + 1 : g;
        g = search(s, d, two, three, left, beta - 1, beta);
        if (s->stop)
            return 0;
        if (g < beta)
            hi = g;
        else
            lo = g;
    }
    return g;
}

/* Search.bounds: the search's first steps without searching. */
static void bounds(Search *s, u128 drawn, uint64_t two, uint64_t three, int left, int *out)
{
    const Geometry *g = s->g;
    int gain = 0, n_takes = 0, decline, takes[MAXB], forced[MAXB + 2];
    while (three) {
        int n = capture_plan(g, drawn, two, three, forced, takes, &n_takes, &decline);
        if (!n)
            break;
        for (int i = 0; i < n; i++)
            gain += play(g, &drawn, &two, &three, forced[i]);
    }
    if (!three)
        n_takes = 0;
    left -= gain;
    if (!left) {
        out[0] = out[1] = gain;
        return;
    }
    Quiet q;
    if (n_takes) {
        q.key = canonical(g, drawn, &q.sym);
        q.chain = 0;
    } else {
        quiet(s->t, g, drawn, two, left, &q, 1);
        if (q.loony) {
            out[0] = out[1] = gain + q.value;
            return;
        }
    }
    Entry *e = probe(s->t, q.key, q.chain);
    out[0] = e ? gain + e->lo : gain - left;
    out[1] = e ? gain + e->hi : gain + left;
}

static void run(Search *s, Job *job)
{
    u128 d = s->root_drawn;
    uint64_t two = s->root_two, three = s->root_three;
    int left = s->root_left, k = 0;
    if (job->kind) {
        k = play(s->g, &d, &two, &three, job->e);
        left -= k;
    }
    switch (job->kind) {
    case 0: /* value */
        job->out[0] = mtdf(s, d, two, three, left, job->guess);
        break;
    case 1: /* move_value */
        if (k)
            job->out[0] = k + mtdf(s, d, two, three, left, job->guess - k);
        else
            job->out[0] = -mtdf(s, d, two, three, left, -job->guess);
        break;
    case 2: /* move_reaches */
        if (k)
            job->out[0] =
                k + search(s, d, two, three, left, job->target - 1 - k, job->target - k) >=
                job->target;
        else
            job->out[0] = -search(s, d, two, three, left, -job->target, -job->target + 1) >=
                          job->target;
        break;
    case 3: { /* move_bounds */
        int b[2];
        bounds(s, d, two, three, left, b);
        if (k) {
            job->out[0] = k + b[0];
            job->out[1] = k + b[1];
        } else {
            job->out[0] = -b[1];
            job->out[1] = -b[0];
        }
        break;
    }
    }
}

static int start(Search *s, Job *job)
{
    if (!s->g || !s->t) {
        PyErr_SetString(PyExc_ValueError, "search not initialised");
        return -1;
    }
    if (job->kind) {
        if (job->e < 0 || job->e >= s->g->n_edges) {
            PyErr_Format(PyExc_ValueError, "edge index %d is not on a %d x %d board", job->e,
                         s->g->width, s->g->height);
            return -1;
        }
        if (s->root_drawn & BIT(job->e)) {
            PyErr_Format(PyExc_ValueError, "edge %d is already drawn", job->e);
            return -1;
        }
    }
    Table *t = s->t;
    s->stop = 0;
    s->ts = PyEval_SaveThread();
    PyThread_acquire_lock(t->lock, WAIT_LOCK);
    int ok = t->entries && t->width == s->g->width && t->height == s->g->height;
    if (ok) {
        t->gen++;
        run(s, job);
    }
    PyThread_release_lock(t->lock);
    PyEval_RestoreThread(s->ts);
    s->ts = NULL;
    if (!ok) {
        PyErr_SetString(PyExc_ValueError, "the table was cleared or serves another board size");
        return -1;
    }
    if (s->stop == 2)
        return -1; /* the signal handler's exception */
    if (s->stop) {
        PyErr_SetString(OutOfBudget, "out of budget");
        return -1;
    }
    return 0;
}

static PyObject *Search_value(Search *self, PyObject *args)
{
    Job job = {0, -1, 0, 0, {0, 0}};
    if (!PyArg_ParseTuple(args, "|i", &job.guess) || start(self, &job) < 0)
        return NULL;
    return PyLong_FromLong(job.out[0]);
}

static PyObject *Search_move_value(Search *self, PyObject *args)
{
    Job job = {1, -1, 0, 0, {0, 0}};
    if (!PyArg_ParseTuple(args, "i|i", &job.e, &job.guess) || start(self, &job) < 0)
        return NULL;
    return PyLong_FromLong(job.out[0]);
}

static PyObject *Search_move_reaches(Search *self, PyObject *args)
{
    Job job = {2, -1, 0, 0, {0, 0}};
    if (!PyArg_ParseTuple(args, "ii", &job.e, &job.target))
        return NULL;
    if (job.target < -INF || job.target > INF) {
        PyErr_SetString(PyExc_ValueError, "target out of range");
        return NULL;
    }
    if (start(self, &job) < 0)
        return NULL;
    return PyBool_FromLong(job.out[0]);
}

static PyObject *Search_move_bounds(Search *self, PyObject *args)
{
    Job job = {3, -1, 0, 0, {0, 0}};
    if (!PyArg_ParseTuple(args, "i", &job.e) || start(self, &job) < 0)
        return NULL;
    return Py_BuildValue("(ii)", job.out[0], job.out[1]);
}

static PyObject *Search_get_nodes(Search *self, void *c)
{
    return PyLong_FromUnsignedLongLong(self->nodes);
}

static PyMethodDef Search_methods[] = {
    {"value", (PyCFunction)Search_value, METH_VARARGS, "Exact value of the root (MTD(f))."},
    {"move_value", (PyCFunction)Search_move_value, METH_VARARGS,
     "Exact value of drawing edge e at the root."},
    {"move_reaches", (PyCFunction)Search_move_reaches, METH_VARARGS,
     "Whether drawing e is worth at least target."},
    {"move_bounds", (PyCFunction)Search_move_bounds, METH_VARARGS,
     "Proved (lower, upper) on the value of drawing e."},
    {NULL},
};

static PyGetSetDef Search_getset[] = {
    {"nodes", (getter)Search_get_nodes, NULL, "Nodes searched so far.", NULL},
    {NULL},
};

static PyTypeObject SearchType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "dotsboxes.engine._native.Search",
    .tp_basicsize = sizeof(Search),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)Search_init,
    .tp_dealloc = (destructor)Search_dealloc,
    .tp_methods = Search_methods,
    .tp_getset = Search_getset,
    .tp_doc = "One search over a position, like solver._Search.",
};

/* loony_value(components): as solver.loony_value, for tests. */
static PyObject *py_loony_value(PyObject *mod, PyObject *arg)
{
    PyObject *fast = PySequence_Fast(arg, "components");
    if (!fast)
        return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n > MAXB) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "too many components");
        return NULL;
    }
    uint8_t comp[MAXB];
    for (Py_ssize_t i = 0; i < n; i++) {
        int kind, len;
        if (!PyArg_ParseTuple(PySequence_Fast_GET_ITEM(fast, i), "ii", &kind, &len) ||
            kind < 0 || kind > 1 || len < 1 || len > MAXB) {
            Py_DECREF(fast);
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_ValueError, "components: (kind 0|1, boxes 1..63)");
            return NULL;
        }
        uint8_t v = (uint8_t)(kind << 6 | len);
        Py_ssize_t j = i;
        while (j && comp[j - 1] > v) {
            comp[j] = comp[j - 1];
            j--;
        }
        comp[j] = v;
    }
    Py_DECREF(fast);
    Table t = {0};
    t.loony = PyMem_RawCalloc(LOONY_MEMO, sizeof(LoonyEntry));
    if (!t.loony)
        return PyErr_NoMemory();
    int v = loony_value(&t, comp, (int)n);
    PyMem_RawFree(t.loony);
    return PyLong_FromLong(v);
}

static PyMethodDef module_methods[] = {

    {"loony_value", py_loony_value, METH_O, "Value of a simple loony endgame."},
    {NULL},
};

static struct PyModuleDef moduledef = {
    PyModuleDef_HEAD_INIT, "dotsboxes.engine._native",
    "The exact solver in C (see dotsboxes/engine/native/solver.c).", -1, module_methods,
};

PyMODINIT_FUNC PyInit__native(void)
{
    if (PyType_Ready(&GeometryType) < 0 || PyType_Ready(&TableType) < 0 ||
        PyType_Ready(&SearchType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&moduledef);
    if (!m)
        return NULL;
    OutOfBudget = PyErr_NewException("dotsboxes.engine._native.OutOfBudget", NULL, NULL);
    if (!OutOfBudget || PyModule_AddObjectRef(m, "OutOfBudget", OutOfBudget) < 0 ||
        PyModule_AddObjectRef(m, "Geometry", (PyObject *)&GeometryType) < 0 ||
        PyModule_AddObjectRef(m, "Table", (PyObject *)&TableType) < 0 ||
        PyModule_AddObjectRef(m, "Search", (PyObject *)&SearchType) < 0 ||
        PyModule_AddIntConstant(m, "ENTRY_BYTES", sizeof(Entry)) < 0 ||
        PyModule_AddIntConstant(m, "MAX_EDGE_BITS", MAXE) < 0 ||
        PyModule_AddIntConstant(m, "MAX_BOXES", MAXB) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
