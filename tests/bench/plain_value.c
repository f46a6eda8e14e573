/* The exact value of a Dots and Boxes position by brute force: the endgame suite's
 * independent cross-check of the solver (tests/bench/endgames.py crosscheck).
 *
 * No chain theory, no pruning, no move ordering: only the rules.  The future of a
 * game depends only on which edges are still undrawn, so with k undrawn edges the
 * value for the side to move of each of the 2^k subsets S is
 *
 *     f(empty) = 0
 *     f(S)     = max over e in S of   c + f(S - e)   if drawing e claims c > 0 boxes
 *                                      - f(S - e)     otherwise (the turn passes)
 *
 * and f(all k) is the position's value.  S - e < S as an integer, so one pass from
 * 0 upwards finds every child already valued, and its reads stream through memory
 * (2^k bytes: 256 MB at k = 28, 4 GB at k = 32).
 *
 * Input (stdin): k, then the number of unclaimed boxes, then each such box's
 * undrawn sides as a bit mask over the k edges (bit i: undrawn edge i).  A box is
 * claimed by the edge that is its last undrawn side.  Output: the value.
 *
 * Build: cc -O2 -o plain_value plain_value.c
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

int main(void) {
    int k, nboxes;
    if (scanf("%d %d", &k, &nboxes) != 2 || k < 1 || k > 34 || nboxes < 0) {
        fprintf(stderr, "expected: k (1-34), box count, then the box masks\n");
        return 2;
    }
    uint64_t box[2][64] = {{0}}; /* per edge: the masks of the (at most 2) boxes it borders */
    int nbox_of[64] = {0};
    for (int b = 0; b < nboxes; b++) {
        unsigned long long m;
        if (scanf("%llx", &m) != 1 || m == 0 || m >> k) {
            fprintf(stderr, "bad mask for box %d\n", b);
            return 2;
        }
        for (int e = 0; e < k; e++) {
            if (m >> e & 1) {
                if (nbox_of[e] == 2) {
                    fprintf(stderr, "edge %d borders more than two boxes\n", e);
                    return 2;
                }
                box[nbox_of[e]++][e] = m;
            }
        }
    }
    uint64_t n = (uint64_t)1 << k;
    int8_t *f = malloc(n);
    if (f == NULL) {
        fprintf(stderr, "cannot allocate %llu bytes\n", (unsigned long long)n);
        return 1;
    }
    f[0] = 0;
    for (uint64_t s = 1; s < n; s++) {
        int best = -128;
        for (uint64_t rest = s; rest; rest &= rest - 1) {
            int e = __builtin_ctzll(rest);
            uint64_t bit = (uint64_t)1 << e, child = s ^ bit;
            int c = 0;
            for (int j = 0; j < nbox_of[e]; j++)
                c += (box[j][e] & s) == bit; /* e is this box's last undrawn side */
            int v = c ? c + f[child] : -f[child];
            if (v > best) best = v;
        }
        f[s] = (int8_t)best;
    }
    printf("%d\n", f[n - 1]);
    free(f);
    return 0;
}
