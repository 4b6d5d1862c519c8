/* step_kernel.c: load a binary kernel into libeuref, step it to its end and print one trace
 * line per instruction: its IP, the channels that executed it and what it wrote.
 *
 *   step_kernel PLATFORM KERNEL.bin [STATE.json]
 *
 * KERNEL.bin holds instruction bytes (`euref asm --gen skl -o KERNEL.bin FILE.asm`); the
 * optional STATE.json is an initial state as `euref run --state` reads it. Each line is
 *
 *   ip 0x0050 en 0x0000ffff r18+0:0000c03f... f0+0:ff00????
 *
 * one `NAME+OFFSET:BYTES` per write, the bytes in address order as hex, `??` for a byte
 * with an undefined bit, `~` after an inexact byte. Build (docs/embedding.md):
 *
 *   cc -std=c99 -I capi/include step_kernel.c -L target/debug -leuref_capi \
 *      -Wl,-rpath,target/debug -o step_kernel
 */
#include <stdio.h>
#include <stdlib.h>
#include "euref.h"

/* The whole file at `path` (its length in *len), or NULL. */
static unsigned char *read_file(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    size_t cap = 4096, n = 0;
    unsigned char *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            unsigned char *bigger = realloc(buf, cap *= 2);
            if (!bigger) {
                free(buf);
                buf = NULL;
            }
            buf = bigger;
        }
    }
    fclose(f);
    *len = n;
    return buf;
}

static int fail(euref_thread *t, const char *what)
{
    fprintf(stderr, "step_kernel: %s: %s\n", what, euref_last_error(t));
    euref_thread_free(t);
    return 1;
}

int main(int argc, char **argv)
{
    if (argc < 3 || argc > 4) {
        fprintf(stderr, "usage: step_kernel PLATFORM KERNEL.bin [STATE.json]\n");
        return 2;
    }
    euref_thread *t = euref_thread_new(argv[1]);
    if (!t) {
        fprintf(stderr, "step_kernel: %s\n", euref_new_error());
        return 2;
    }
    size_t len = 0;
    unsigned char *kernel = read_file(argv[2], &len);
    if (!kernel) {
        fprintf(stderr, "step_kernel: cannot read %s\n", argv[2]);
        euref_thread_free(t);
        return 2;
    }
    if (argc == 4) {
        size_t jlen = 0;
        unsigned char *json = read_file(argv[3], &jlen);
        if (!json) {
            fprintf(stderr, "step_kernel: cannot read %s\n", argv[3]);
            free(kernel);
            euref_thread_free(t);
            return 2;
        }
        int32_t rc = euref_load_state_json(t, (const char *)json, jlen);
        free(json);
        if (rc != EUREF_OK) {
            free(kernel);
            return fail(t, argv[3]);
        }
    }
    int32_t rc = euref_load_program(t, kernel, len);
    free(kernel);
    if (rc != EUREF_OK)
        return fail(t, argv[2]);

    euref_step_info info;
    do {
        if (euref_step(t, &info) != EUREF_OK)
            return fail(t, "step");
        printf("ip 0x%04x en 0x%08x", (unsigned)info.ip, (unsigned)info.enabled);
        for (uint32_t i = 0; i < info.n_writes; i++) {
            euref_write w;
            if (euref_step_write(t, i, &w) != EUREF_OK)
                return fail(t, "step_write");
            printf(" %s+%llu:", w.name, (unsigned long long)w.offset);
            for (uint32_t k = 0; k < w.len; k++) {
                if (w.undefined[k])
                    printf("??");
                else
                    printf("%02x", w.bytes[k]);
                if (w.inexact[k])
                    printf("~");
            }
        }
        printf("\n");
    } while (!info.ended);
    euref_thread_free(t);
    return 0;
}
