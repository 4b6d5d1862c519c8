/*
 * euref_dpi.c: the C side of the SystemVerilog package euref_dpi (dpi/euref_dpi.sv).
 *
 * A thin layer from DPI-C types (chandle, string, svBitVecVal for bit [255:0], open arrays of
 * bytes) to libeuref's C API (euref.h). Each chandle is a `euref_dpi` holding one
 * euref_thread and the text buffers that strings returned to SystemVerilog point into (the
 * last error, the last compare report, the name of the last write read), so no state is shared
 * between handles. Strings returned to SystemVerilog stay valid until the next call on the
 * same handle.
 *
 * Valid C99 and C++ (Verilator compiles it with the C++ compiler).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "euref.h"
#include "svdpi.h"
/* The simulator's header of the package's imports, when the build names it (Verilator:
 * -CFLAGS '-DEUREF_DPI_HEADER="Vtop__Dpi.h"'): the compiler then checks every definition below
 * against the prototype the simulator expects. */
#ifdef EUREF_DPI_HEADER
#include EUREF_DPI_HEADER
#endif

#ifdef __cplusplus
extern "C" {
#endif

enum { EUREF_DPI_TEXT = 4096, EUREF_DPI_GRF_BYTES = 32 };

typedef struct euref_dpi {
  euref_thread *thread;
  char error[EUREF_DPI_TEXT];  /* the last failing call's message */
  char report[EUREF_DPI_TEXT]; /* the last euref_dpi_compare_grf report */
  char name[17];               /* the register name of the last euref_dpi_step_write */
} euref_dpi;

/* Why the last euref_dpi_new failed when the cause is the shim's, not libeuref's. */
static char new_error_text[256];

static void set_error(euref_dpi *h, const char *text) {
  snprintf(h->error, sizeof h->error, "%s", text);
}

/* After a libeuref call: keeps its message when it failed, returns its status. */
static int32_t keep_status(euref_dpi *h, int32_t status) {
  if (status < 0) {
    const char *why = euref_last_error(h->thread);
    set_error(h, why && why[0] ? why : "libeuref reported an error without a message");
  } else {
    h->error[0] = '\0';
  }
  return status;
}

/* bit [255:0] <-> 32 register bytes (byte i is bits 8*i+7:8*i). */
static void bits_to_bytes(const svBitVecVal *bits, uint8_t *bytes) {
  for (int i = 0; i < EUREF_DPI_GRF_BYTES; i++)
    bytes[i] = (uint8_t)(bits[i / 4] >> (8 * (i % 4)));
}

static void bytes_to_bits(const uint8_t *bytes, svBitVecVal *bits) {
  for (int w = 0; w < EUREF_DPI_GRF_BYTES / 4; w++)
    bits[w] = (svBitVecVal)bytes[4 * w] | (svBitVecVal)bytes[4 * w + 1] << 8 |
              (svBitVecVal)bytes[4 * w + 2] << 16 | (svBitVecVal)bytes[4 * w + 3] << 24;
}

void *euref_dpi_new(const char *platform) {
  new_error_text[0] = '\0';
  euref_dpi *h = (euref_dpi *)calloc(1, sizeof *h);
  if (!h) {
    snprintf(new_error_text, sizeof new_error_text, "euref_dpi_new: out of memory");
    return NULL;
  }
  h->thread = euref_thread_new(platform);
  if (!h->thread) {
    free(h);
    return NULL;
  }
  return h;
}

const char *euref_dpi_new_error(void) {
  if (new_error_text[0]) return new_error_text;
  const char *why = euref_new_error();
  return why ? why : "";
}

void euref_dpi_free(void *handle) {
  euref_dpi *h = (euref_dpi *)handle;
  if (!h) return;
  euref_thread_free(h->thread);
  free(h);
}

const char *euref_dpi_last_error(void *handle) {
  euref_dpi *h = (euref_dpi *)handle;
  return h ? h->error : "euref_dpi_last_error: null handle";
}

int euref_dpi_load_file(void *handle, const char *path) {
  euref_dpi *h = (euref_dpi *)handle;
  if (!h) return EUREF_ERR_ARG;
  FILE *f = fopen(path, "rb");
  if (!f) {
    snprintf(h->error, sizeof h->error, "euref_dpi_load_file: cannot open %s", path);
    return EUREF_ERR_ARG;
  }
  size_t cap = 4096, len = 0;
  uint8_t *bytes = (uint8_t *)malloc(cap);
  while (bytes) {
    len += fread(bytes + len, 1, cap - len, f);
    if (len < cap) break;
    uint8_t *grown = (uint8_t *)realloc(bytes, cap * 2);
    if (!grown) {
      free(bytes);
      bytes = NULL;
      break;
    }
    bytes = grown;
    cap *= 2;
  }
  int failed = ferror(f);
  fclose(f);
  if (!bytes) {
    snprintf(h->error, sizeof h->error, "euref_dpi_load_file: out of memory reading %s", path);
    return EUREF_ERR_MEMORY;
  }
  if (failed) {
    free(bytes);
    snprintf(h->error, sizeof h->error, "euref_dpi_load_file: read error on %s", path);
    return EUREF_ERR_ARG;
  }
  int32_t status = keep_status(h, euref_load_program(h->thread, bytes, len));
  free(bytes);
  return status;
}

int euref_dpi_load_bytes(void *handle, const svOpenArrayHandle array, unsigned len) {
  euref_dpi *h = (euref_dpi *)handle;
  if (!h) return EUREF_ERR_ARG;
  int size = svSize(array, 1);
  if (size < 0 || len > (unsigned)size) {
    snprintf(h->error, sizeof h->error,
             "euref_dpi_load_bytes: len %u is beyond the array's %d elements", len, size);
    return EUREF_ERR_ARG;
  }
  uint8_t *bytes = (uint8_t *)malloc(len ? len : 1);
  if (!bytes) {
    set_error(h, "euref_dpi_load_bytes: out of memory");
    return EUREF_ERR_MEMORY;
  }
  int low = svLow(array, 1);
  int step = svLow(array, 1) <= svHigh(array, 1) ? 1 : -1;
  for (unsigned i = 0; i < len; i++)
    bytes[i] = *(const uint8_t *)svGetArrElemPtr1(array, low + step * (int)i);
  int32_t status = keep_status(h, euref_load_program(h->thread, bytes, len));
  free(bytes);
  return status;
}

int euref_dpi_set_grf(void *handle, unsigned reg, const svBitVecVal *value) {
  euref_dpi *h = (euref_dpi *)handle;
  if (!h) return EUREF_ERR_ARG;
  uint8_t bytes[EUREF_DPI_GRF_BYTES];
  bits_to_bytes(value, bytes);
  return keep_status(h, euref_set_grf(h->thread, reg, bytes));
}

int euref_dpi_get_grf(void *handle, unsigned reg, svBitVecVal *value, svBitVecVal *undefined) {
  euref_dpi *h = (euref_dpi *)handle;
  uint8_t bytes[EUREF_DPI_GRF_BYTES] = {0}, undef[EUREF_DPI_GRF_BYTES] = {0};
  int32_t status = h ? keep_status(h, euref_get_grf(h->thread, reg, bytes, undef)) : EUREF_ERR_ARG;
  bytes_to_bits(bytes, value);
  bytes_to_bits(undef, undefined);
  return status;
}

int euref_dpi_step(void *handle, unsigned *ip, unsigned *next_ip, unsigned *enabled,
                   unsigned *ended, unsigned *n_writes) {
  euref_dpi *h = (euref_dpi *)handle;
  euref_step_info info;
  memset(&info, 0, sizeof info);
  int32_t status = h ? keep_status(h, euref_step(h->thread, &info)) : EUREF_ERR_ARG;
  *ip = info.ip;
  *next_ip = info.next_ip;
  *enabled = info.enabled;
  *ended = info.ended;
  *n_writes = info.n_writes;
  return status;
}

int euref_dpi_step_write(void *handle, unsigned i, unsigned *kind, unsigned long long *offset,
                         unsigned *len, svBitVecVal *bytes, svBitVecVal *undefined,
                         svBitVecVal *inexact) {
  euref_dpi *h = (euref_dpi *)handle;
  euref_write w;
  memset(&w, 0, sizeof w);
  int32_t status = h ? keep_status(h, euref_step_write(h->thread, i, &w)) : EUREF_ERR_ARG;
  if (h) {
    memcpy(h->name, w.name, sizeof w.name);
    h->name[sizeof w.name] = '\0';
    if (status < 0) h->name[0] = '\0';
  }
  *kind = w.kind;
  *offset = w.offset;
  *len = w.len;
  bytes_to_bits(w.bytes, bytes);
  bytes_to_bits(w.undefined, undefined);
  bytes_to_bits(w.inexact, inexact);
  return status;
}

const char *euref_dpi_write_name(void *handle) {
  euref_dpi *h = (euref_dpi *)handle;
  return h ? h->name : "";
}

int euref_dpi_compare_grf(void *handle, unsigned reg, const svBitVecVal *actual) {
  euref_dpi *h = (euref_dpi *)handle;
  if (!h) return EUREF_ERR_ARG;
  uint8_t bytes[EUREF_DPI_GRF_BYTES];
  bits_to_bytes(actual, bytes);
  h->report[0] = '\0';
  return keep_status(h, euref_compare_grf(h->thread, reg, bytes, h->report, sizeof h->report));
}

const char *euref_dpi_report(void *handle) {
  euref_dpi *h = (euref_dpi *)handle;
  return h ? h->report : "";
}

#ifdef __cplusplus
}
#endif
