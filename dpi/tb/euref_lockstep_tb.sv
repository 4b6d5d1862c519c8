// euref_lockstep_tb: steps a SystemVerilog model of a few EU instructions (gen_alu_model) in
// lockstep with euref through the DPI-C package euref_dpi, and flags the first instruction at
// which the model's write-back differs from euref's.
//
// Plusargs:
//   +program=FILE    the program: native 128-bit instruction words (`euref asm -o FILE`)
//   +platform=NAME   euref's platform, a Gen8/Gen9 one (the model decodes Gen8+ words); skl
//   +inject_bug      the model's `add` with an immediate adds one too many (also with
//                    +define+INJECT_BUG at build time)
//   +verilator+error+limit+N  (Verilator) let the run go on past the first $error
//
// For each instruction: the model executes it from the bytes it read, euref steps the same
// one, euref's writes are printed, and euref_dpi_compare_grf compares the model's destination
// register with euref's; a difference is a $error with euref's report, after which the model
// takes euref's value of that register and goes on. Then the package itself is checked (an
// unknown platform, a missing file, a second thread loaded from the file with the same
// registers at the end). The run ends with
// "PASS: ..." or "FAIL: ..." ($fatal).
//
// Exit status: Verilator ends the run at its error limit (default 1), with a non-zero status.
// By default the first mismatch's $error is therefore the end of the run; with
// +verilator+error+limit+N the run goes on past N-1 errors to the summary, and a failing run
// whose errors stay under the limit ends with $finish, status 0: read the FAIL line.
module euref_lockstep_tb;
  import euref_dpi::*;

  localparam int unsigned MAX_BYTES = 4096;

  gen_alu_model model ();

  byte unsigned program_bytes[MAX_BYTES];

  // The initial values of r2 and r3, set in the model and in euref alike.
  function automatic bit [255:0] initial_reg(int unsigned r);
    bit [255:0] v;
    for (int c = 0; c < 8; c++)
      v[32*c+:32] = r == 2 ? 32'h9e37_79b9 * (c + 1) : 32'h7fff_fff0 + 32'h0101_0101 * c;
    return v;
  endfunction

  initial begin
    string path, platform, what;
    int fd, len, status, mismatches, problems, first_bad;
    int unsigned count, dst, ip, next_ip, enabled, ended, n_writes;
    int unsigned kind, wlen;
    longint unsigned offset;
    bit [255:0] wbytes, wundef, winexact;
    bit [127:0] inst;
    bit wrote_dst;
    chandle h, h2;
    bit [255:0] v1, v2, u1, u2;

    if (!$value$plusargs("program=%s", path)) $fatal(1, "missing +program=FILE");
    if (!$value$plusargs("platform=%s", platform)) platform = "skl";
    model.inject_bug = $test$plusargs("inject_bug");
`ifdef INJECT_BUG
    model.inject_bug = 1;
`endif

    fd = $fopen(path, "rb");
    if (fd == 0) $fatal(1, "cannot open the program %s", path);
    len = $fread(program_bytes, fd);
    $fclose(fd);
    if (len <= 0 || len % 16 != 0 || len >= MAX_BYTES)
      $fatal(1, "%s: %0d bytes; the model reads 1 to %0d native 16-byte instructions", path, len,
             MAX_BYTES / 16 - 1);
    count = len / 16;

    h = euref_dpi_new(platform);
    if (h == null) $fatal(1, "euref_dpi_new(%s): %s", platform, euref_dpi_new_error());
    for (int unsigned r = 2; r <= 3; r++) begin
      model.set_reg(r, initial_reg(r));
      if (euref_dpi_set_grf(h, r, initial_reg(r)) != EUREF_OK)
        $fatal(1, "euref_dpi_set_grf(r%0d): %s", r, euref_dpi_last_error(h));
    end
    if (euref_dpi_load_bytes(h, program_bytes, len) != EUREF_OK)
      $fatal(1, "euref_dpi_load_bytes: %s", euref_dpi_last_error(h));
    $display("lockstep: %0d instructions from %s on %s", count, path, platform);
    if (model.inject_bug) $display("lockstep: the model has the injected add bug");

    mismatches = 0;
    problems = 0;
    first_bad = -1;
    for (int unsigned k = 0; k < count; k++) begin
      for (int i = 0; i < 16; i++) inst[8*i+:8] = program_bytes[16*k+i];
      if (!model.execute(inst, dst, what)) begin
        $error("instruction %0d (ip 0x%0h): the model cannot execute it: %s", k, 16 * k, what);
        problems++;
        break;
      end
      status = euref_dpi_step(h, ip, next_ip, enabled, ended, n_writes);
      if (status < 0) begin
        $error("instruction %0d: euref_dpi_step: %s", k, euref_dpi_last_error(h));
        problems++;
        break;
      end
      if (ip != 16 * k) begin
        $error("instruction %0d: euref stepped ip 0x%0h, the model 0x%0h", k, ip, 16 * k);
        problems++;
        break;
      end
      $display("step %0d ip 0x%04h: %s; euref: %0d write(s), channels 0x%0h", k, ip, what,
               n_writes, enabled);
      wrote_dst = 0;
      for (int unsigned i = 0; i < n_writes; i++) begin
        if (euref_dpi_step_write(h, i, kind, offset, wlen, wbytes, wundef, winexact) != EUREF_OK)
        begin
          $error("instruction %0d: euref_dpi_step_write(%0d): %s", k, i, euref_dpi_last_error(h));
          problems++;
          continue;
        end
        $display("  euref wrote %s bytes %0d..%0d", euref_dpi_write_name(h), offset,
                 offset + 64'(wlen) - 1);
        if (kind == EUREF_WRITE_GRF && euref_dpi_write_name(h) == $sformatf("r%0d", dst))
          wrote_dst = 1;
      end
      if (!wrote_dst) begin
        $error("instruction %0d (ip 0x%0h): the model wrote r%0d, euref did not", k, ip, dst);
        problems++;
      end
      status = euref_dpi_compare_grf(h, dst, model.reg_value(dst));
      if (status == EUREF_MISMATCH) begin
        $error("MISMATCH at instruction %0d (ip 0x%0h, %s): %s", k, ip, what, euref_dpi_report(h));
        mismatches++;
        if (first_bad < 0) first_bad = k;
        // Go on from euref's value, so that each later instruction is judged on its own.
        if (euref_dpi_get_grf(h, dst, wbytes, wundef) != EUREF_OK)
          $fatal(1, "euref_dpi_get_grf(r%0d): %s", dst, euref_dpi_last_error(h));
        model.set_reg(dst, wbytes);
      end else if (status != EUREF_OK) begin
        $error("instruction %0d: euref_dpi_compare_grf: %s", k, euref_dpi_last_error(h));
        problems++;
      end
    end

    // The package itself: an unknown platform is refused with a message; a second,
    // independent thread loads the program from the file, steps it to the same registers;
    // a missing file is an error with a message.
    h2 = euref_dpi_new("gen99");
    what = euref_dpi_new_error();
    // (Verilator 5.006 got a DPI string result compared with "" in place wrong: kept in `what`.)
    if (h2 != null || what == "") begin
      $error("euref_dpi_new(\"gen99\") did not fail with a message");
      problems++;
    end
    h2 = euref_dpi_new(platform);
    status = euref_dpi_load_file(h2, "/nonexistent/euref.bin");
    what = euref_dpi_last_error(h2);
    if (status != EUREF_ERR_ARG || what == "") begin
      $error("euref_dpi_load_file of a missing file did not fail with a message");
      problems++;
    end
    status = euref_dpi_load_file(h2, path);
    for (int unsigned r = 2; r <= 3; r++) status |= euref_dpi_set_grf(h2, r, initial_reg(r));
    for (int unsigned k = 0; k < count && status == EUREF_OK; k++)
      status = euref_dpi_step(h2, ip, next_ip, enabled, ended, n_writes);
    for (int unsigned r = 2; r < 128 && status == EUREF_OK; r++) begin
      status = euref_dpi_get_grf(h, r, v1, u1) | euref_dpi_get_grf(h2, r, v2, u2);
      if (status == EUREF_OK && (u1 != u2 || (v1 & ~u1) != (v2 & ~u2))) begin
        $error("r%0d: the thread loaded from the file differs from the first one", r);
        problems++;
      end
    end
    if (status != EUREF_OK) begin
      $error("the thread loaded from the file: %s", euref_dpi_last_error(h2));
      problems++;
    end else $display("second thread from %s: same registers", path);
    euref_dpi_free(h2);
    euref_dpi_free(h);

    if (mismatches == 0 && problems == 0) begin
      $display("PASS: %0d instructions in lockstep with euref, no mismatch", count);
      $finish;
    end else begin
      if (first_bad >= 0)
        $fatal(1, "FAIL: %0d mismatch(es), first at instruction %0d (ip 0x%0h); %0d other problem(s)",
               mismatches, first_bad, 16 * first_bad, problems);
      else $fatal(1, "FAIL: %0d problem(s) stopped the lockstep", problems);
      // $fatal is one more error to Verilator, which ends the run only at its error limit:
      // under +verilator+error+limit+N the run would otherwise never end.
      $finish;
    end
  end
endmodule
