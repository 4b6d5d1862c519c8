// euref_dpi: SystemVerilog DPI-C access to euref, the reference model of the Intel GEN
// (Gen7-Gen9) EU ISA, for lockstep comparison inside a testbench.
//
// Each function is implemented in dpi/euref_dpi.c on top of libeuref (header euref.h, crate
// capi/). A handle (chandle) is one EU thread of one platform; handles are independent.
// Status codes are libeuref's: EUREF_OK (0), EUREF_MISMATCH (1, compare only), negative codes
// are errors whose message euref_dpi_last_error returns.
//
// Registers cross the boundary as `bit [255:0]`: GRF byte i is bits [8*i+7:8*i], so dword
// channel n of a register is bits [32*n+31:32*n].
//
// Build with Verilator: pass this file before the files that import it, dpi/euref_dpi.c, the
// include directory of euref.h (-CFLAGS -I...) and the library (-LDFLAGS "-L... -leuref").
// docs/embedding.md (section SystemVerilog DPI-C) has a complete example.
package euref_dpi;

  // Status codes (euref.h).
  localparam int EUREF_OK = 0;
  localparam int EUREF_MISMATCH = 1;
  localparam int EUREF_ERR_ARG = -1;
  localparam int EUREF_ERR_PLATFORM = -2;
  localparam int EUREF_ERR_PARSE = -3;
  localparam int EUREF_ERR_DECODE = -4;
  localparam int EUREF_ERR_REFUSED = -5;
  localparam int EUREF_ERR_ENDED = -6;
  localparam int EUREF_ERR_MEMORY = -7;
  localparam int EUREF_ERR_INTERNAL = -99;

  // Kinds of a step's writes (euref_write.kind).
  localparam int unsigned EUREF_WRITE_GRF = 0;
  localparam int unsigned EUREF_WRITE_ARF = 1;
  localparam int unsigned EUREF_WRITE_FLAG = 2;
  localparam int unsigned EUREF_WRITE_MEMORY = 3;

  // A thread of `platform` ("ivb", "hsw", "bdw", "chv", "skl", "bxt"); null on error, then
  // euref_dpi_new_error says why.
  import "DPI-C" function chandle euref_dpi_new(input string platform);
  import "DPI-C" function string euref_dpi_new_error();
  // Frees the thread (null is accepted).
  import "DPI-C" function void euref_dpi_free(input chandle h);
  // The message of the last failing call on this handle ("" when none).
  import "DPI-C" function string euref_dpi_last_error(input chandle h);

  // Loads a program (native or compact instruction words) at IP 0: from a file, or from the
  // first `len` bytes of an array.
  import "DPI-C" function int euref_dpi_load_file(input chandle h, input string path);
  import "DPI-C" function int euref_dpi_load_bytes(input chandle h,
                                                   input byte unsigned bytes[],
                                                   input int unsigned len);

  // Writes and reads GRF register `regnum` (32 bytes). `undefined` has all 8 bits of each byte
  // set where euref's value of that byte is undefined.
  import "DPI-C" function int euref_dpi_set_grf(input chandle h, input int unsigned regnum,
                                                input bit [255:0] value);
  import "DPI-C" function int euref_dpi_get_grf(input chandle h, input int unsigned regnum,
                                                output bit [255:0] value,
                                                output bit [255:0] undefined);

  // Executes one instruction. `ended` is 1 when the thread has ended (EOT); `n_writes` is
  // the number of writes euref_dpi_step_write returns for this step.
  import "DPI-C" function int euref_dpi_step(input chandle h,
                                             output int unsigned ip,
                                             output int unsigned next_ip,
                                             output int unsigned enabled,
                                             output int unsigned ended,
                                             output int unsigned n_writes);

  // Write `i` (< n_writes) of the last step: its kind (EUREF_WRITE_*), byte offset in the
  // register (or the memory address), length (<= 32 bytes) and bytes starting at bit 0, with
  // the undefined and inexact marks (0xff per byte). euref_dpi_write_name then gives its
  // register name ("r12", "acc0", "f0", "mem").
  import "DPI-C" function int euref_dpi_step_write(input chandle h, input int unsigned i,
                                                   output int unsigned kind,
                                                   output longint unsigned offset,
                                                   output int unsigned len,
                                                   output bit [255:0] bytes,
                                                   output bit [255:0] undefined,
                                                   output bit [255:0] inexact);
  import "DPI-C" function string euref_dpi_write_name(input chandle h);

  // Compares a design's value of GRF register `regnum` with euref's after the last step:
  // EUREF_OK when equal on every defined, exact byte; EUREF_MISMATCH otherwise, and
  // euref_dpi_report then names the differing channels and the spec rule IDs of the last
  // instruction.
  import "DPI-C" function int euref_dpi_compare_grf(input chandle h, input int unsigned regnum,
                                                    input bit [255:0] actual);
  import "DPI-C" function string euref_dpi_report(input chandle h);

endpackage
