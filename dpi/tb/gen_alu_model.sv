// gen_alu_model: a small SystemVerilog model of three Gen8/Gen9 EU instructions, the "design"
// the lockstep testbench (euref_lockstep_tb.sv) compares with euref.
//
// It executes `mov`, `add` and `and` (Align1, no predication, no condition modifier, no
// saturation, no source modifiers) on UD/D dword operands: a GRF destination with direct
// addressing, GRF sources with any direct region, and a 32-bit immediate as the last source.
// It reads the native 128-bit instruction word; anything else is reported as unsupported.
// Every channel of the execution size is written (the testbench's thread runs with all
// channels enabled).
//
// Where the facts come from (euref's spec tables, each row citing Mesa's brw_eu_inst.h field
// macros and brw_eu_defines.h / brw_reg_type.c):
//   field bit positions    spec/encoding/gen8.toml  enc.gen8.a1 and enc.gen8.a1-imm (gen8+)
//   RegFile values         spec/encoding/values.toml enc.gen8.reg-file (grf 1, imm 3)
//   ExecSize, regions      spec/encoding/values.toml enc.exec-size, enc.vstride, enc.width,
//                          enc.hstride, enc.dst-hstride, enc.address-mode
//   opcode numbers         spec/opcodes.toml  opcode.mov (0x01), opcode.and (0x05),
//                          opcode.add (0x40)
//   type encodings         spec/types.toml  type.ud (0), type.d (1)
//
// `inject_bug` (set by the testbench from +inject_bug or +define+INJECT_BUG) makes `add` with an
// immediate source add one too many: the testbench must flag that instruction.
module gen_alu_model;

  localparam int unsigned GRF_BYTES = 128 * 32;

  bit [7:0] grf[GRF_BYTES];
  bit inject_bug;

  // Opcode numbers (spec/opcodes.toml).
  localparam bit [6:0] OP_MOV = 7'h01;
  localparam bit [6:0] OP_AND = 7'h05;
  localparam bit [6:0] OP_ADD = 7'h40;
  // RegFile values (enc.gen8.reg-file).
  localparam bit [1:0] FILE_GRF = 2'd1;
  localparam bit [1:0] FILE_IMM = 2'd3;
  // Register type encodings (type.ud, type.d).
  localparam bit [3:0] TYPE_UD = 4'd0;
  localparam bit [3:0] TYPE_D = 4'd1;

  function automatic bit [255:0] reg_value(int unsigned r);
    bit [255:0] v;
    for (int i = 0; i < 32; i++) v[8*i+:8] = grf[32*r+i];
    return v;
  endfunction

  function automatic void set_reg(int unsigned r, bit [255:0] v);
    for (int i = 0; i < 32; i++) grf[32*r+i] = v[8*i+:8];
  endfunction

  function automatic bit [31:0] read_dword(int unsigned byte_addr);
    return {grf[byte_addr+3], grf[byte_addr+2], grf[byte_addr+1], grf[byte_addr]};
  endfunction

  // Stride encodings (enc.vstride, enc.width, enc.hstride): 0 is 0, n is 2^(n-1); width is 2^n.
  function automatic int unsigned stride(bit [3:0] enc);
    return enc == 0 ? 0 : 1 << (enc - 1);
  endfunction

  function automatic string type_name(bit [3:0] t);
    return t == TYPE_UD ? "ud" : "d";
  endfunction

  // Source `n` (0 or 1) of `inst` for channel `c`. The register fields of src0 and src1 are at
  // the same offsets from their bases (enc.gen8.a1): file 42:41 / 90:89, type 46:43 / 94:91,
  // subregister (bytes) 68:64 / 100:96, register 76:69 / 108:101, abs 77 / 109, negate 78 /
  // 110, address mode 79 / 111, hstride 81:80 / 113:112, width 84:82 / 116:114, vstride
  // 88:85 / 120:117. An immediate is bits 127:96 (enc.gen8.a1-imm).
  function automatic bit [31:0] source(bit [127:0] inst, int n, int unsigned c);
    bit [1:0] file = n == 0 ? inst[42:41] : inst[90:89];
    int unsigned base = n == 0 ? 64 : 96;
    int unsigned vstride, width, hstride, row, col, addr;
    if (file == FILE_IMM) return inst[127:96];
    vstride = stride(inst[base+21+:4]);
    width = 1 << inst[base+18+:3];
    hstride = stride({2'b0, inst[base+16+:2]});
    row = c / width;
    col = c % width;
    addr = 32 * 32'(inst[base+5+:8]) + 32'(inst[base+:5]) + 4 * (row * vstride + col * hstride);
    return read_dword(addr % GRF_BYTES);
  endfunction

  // Checks that a source is one the model executes; "" when it is, else why not.
  function automatic string source_problem(bit [127:0] inst, int n);
    bit [1:0] file = n == 0 ? inst[42:41] : inst[90:89];
    bit [3:0] rtype = n == 0 ? inst[46:43] : inst[94:91];
    int unsigned base = n == 0 ? 64 : 96;
    if (rtype != TYPE_UD && rtype != TYPE_D)
      return $sformatf("src%0d type encoding %0d is not UD or D", n, rtype);
    if (file == FILE_IMM) return "";
    if (file != FILE_GRF) return $sformatf("src%0d register file %0d is not GRF", n, file);
    if (inst[base+15]) return $sformatf("src%0d uses indirect addressing", n);
    if (inst[base+14] || inst[base+13]) return $sformatf("src%0d has a source modifier", n);
    if (inst[base+21+:4] > 6 || inst[base+18+:3] > 4)
      return $sformatf("src%0d region is reserved or VxH", n);
    return "";
  endfunction

  // Executes one instruction. Returns 1 and sets `dst_reg` (the register written) and `what`
  // (a short text of the instruction); returns 0 with `what` saying why the model cannot.
  function automatic bit execute(input bit [127:0] inst, output int unsigned dst_reg,
                                 output string what);
    bit [6:0] opcode = inst[6:0];  // 6:0 opcode
    int unsigned channels = 1 << inst[23:21];  // 23:21 exec_size
    bit [3:0] dst_type = inst[40:37];  // 40:37 dst_reg_type
    int unsigned dst_sub = 32'(inst[52:48]);  // 52:48 dst_subreg_nr (bytes)
    int unsigned dst_stride = stride({2'b0, inst[62:61]});  // 62:61 dst_hstride
    int srcs = opcode == OP_MOV ? 1 : 2;
    bit [31:0] a, b, r;
    string problem = "";
    dst_reg = 32'(inst[60:53]);  // 60:53 dst_reg_nr
    if (opcode != OP_MOV && opcode != OP_ADD && opcode != OP_AND)
      problem = $sformatf("opcode 0x%02h is not mov, add or and", opcode);
    else if (inst[29]) problem = "compacted instruction (cmpt_control, bit 29)";
    else if (inst[8]) problem = "Align16 (access_mode, bit 8)";
    else if (inst[19:16] != 0) problem = "predicated (pred_control, bits 19:16)";
    else if (inst[27:24] != 0) problem = "condition modifier (bits 27:24)";
    else if (inst[31]) problem = "saturation (bit 31)";
    else if (inst[28]) problem = "accumulator write (acc_wr_control, bit 28)";
    else if (inst[23:21] > 3) problem = "execution size above 8";
    else if (inst[36:35] != FILE_GRF) problem = "destination is not a GRF register";
    else if (inst[63]) problem = "indirect destination (dst_address_mode, bit 63)";
    else if (dst_type != TYPE_UD && dst_type != TYPE_D) problem = "destination type is not UD or D";
    else if (dst_sub + 4 * dst_stride * (channels - 1) + 4 > 32)
      problem = "destination region leaves its register";
    else problem = source_problem(inst, 0);
    if (problem == "" && srcs == 2) begin
      if (inst[42:41] == FILE_IMM) problem = "src0 is an immediate";
      else problem = source_problem(inst, 1);
    end
    if (problem != "") begin
      what = problem;
      return 0;
    end
    for (int unsigned c = 0; c < channels; c++) begin
      a = source(inst, 0, c);
      b = source(inst, 1, c);
      case (opcode)
        OP_MOV: r = a;
        OP_AND: r = a & b;
        default: begin
          r = a + b;  // UD and D: the same 32-bit two's complement sum
          if (inject_bug && inst[90:89] == FILE_IMM) r = r + 1;
        end
      endcase
      for (int i = 0; i < 4; i++) grf[32*dst_reg+dst_sub+4*dst_stride*c+i] = r[8*i+:8];
    end
    what = $sformatf("%s (%0d) r%0d.%0d:%s", opcode == OP_MOV ? "mov" : opcode == OP_AND ? "and"
                     : "add", channels, dst_reg, dst_sub / 4, type_name(dst_type));
    for (int n = 0; n < srcs; n++) begin
      if ((n == 0 ? inst[42:41] : inst[90:89]) == FILE_IMM)
        what = {what, $sformatf(" 0x%08h", inst[127:96])};
      else
        what = {what, $sformatf(" r%0d.%0d", n == 0 ? inst[76:69] : inst[108:101],
                                (n == 0 ? inst[68:64] : inst[100:96]) / 4)};
    end
    return 1;
  endfunction

endmodule
