;; The JSON body pre-scan of json-scan.ts, 64 bytes at a time with WebAssembly SIMD.
;; Same flags, same contract as scanJsonBytes there (its comments say what each flag means):
;;   1 JSON_TOO_DEEP, 2 JSON_MAY_OVERFLOW, 4 JSON_NEEDS_POISON_CHECK (the BOM part stays in JS),
;; and one more for its caller alone: 8 when a byte is 0x80 or more (not ASCII; json-scan-wasm.ts
;; then decodes the text as UTF-8, else as Latin-1, a plain copy). Not set when the scan stops
;; early at JSON_TOO_DEEP, which is refused before any decoding.
;; The caller copies the body to offset 0 and fills at least 80 bytes after it with spaces
;; (0x20, neutral in every class below): the last block reads up to 63 bytes past the end and
;; the exponent look-ahead a few more.
;;
;; Per 64-byte block, one bit per byte (bit k = byte k of the block):
;;   q quotes, b backslashes, o `{` `[`, c `}` `]`, d digits, e `e` `E`.
;; Strings are found as in simdjson: escaped characters come from the backslash runs (a carry
;; subtraction marks the odd-length ones), unescaped quotes toggle "in a string" through a
;; prefix XOR, and the bits inside strings are cleared from o, c, d and e. Depth is counted with
;; popcounts when the block cannot pass the limit, bit by bit otherwise, so '[[[[...' stops at
;; the first block past maxDepth. A string literal of exactly 9 or 11 bytes between an opening
;; and a closing quote is compared with `__proto__` / `constructor` one block later, when the
;; closing quotes of the next block are known.
;;
;; Assembled by scripts/assemble-json-scan.js into json-scan-wasm-binary.ts (the test
;; json-scan-wasm.test.ts checks the embedded bytes match this text).
(module
  (memory (export "memory") 2)

  (func (export "scan") (param $n i32) (param $max i32) (result i32)
    (local $i i32) (local $flags i32) (local $depth i32) (local $run i32) (local $t i32) (local $p i32)
    (local $v0 v128) (local $v1 v128) (local $v2 v128) (local $v3 v128)
    (local $w0 v128) (local $w1 v128) (local $w2 v128) (local $w3 v128)
    (local $q i64) (local $b i64) (local $o i64) (local $c i64) (local $d i64) (local $e i64)
    (local $s i64) (local $m i64) (local $codes i64)
    (local $nextEsc i64) (local $inStr i64) (local $prevDigit i64)
    (local $open i64) (local $close i64) (local $prevOpen i64) (local $prevClose i64)
    (local $cand i64) (local $high v128)

    (block $done
      (loop $blocks
        (br_if $done (i32.ge_u (local.get $i) (local.get $n)))
        (local.set $v0 (v128.load offset=0 (local.get $i)))
        (local.set $v1 (v128.load offset=16 (local.get $i)))
        (local.set $v2 (v128.load offset=32 (local.get $i)))
        (local.set $v3 (v128.load offset=48 (local.get $i)))
        ;; every byte ORed together: its high bit says whether one is not ASCII (4 ORs a block, about
        ;; 0.4 µs per 64 KB, where a separate isAscii pass over the copy cost 0.8)
        (local.set $high (v128.or (local.get $high) (v128.or (v128.or (local.get $v0) (local.get $v1)) (v128.or (local.get $v2) (local.get $v3)))))

        ;; q: quotes
        (local.set $q (i64.or
          (i64.extend_i32_u (i32.or
            (i8x16.bitmask (i8x16.eq (local.get $v0) (v128.const i8x16 34 34 34 34 34 34 34 34 34 34 34 34 34 34 34 34)))
            (i32.shl (i8x16.bitmask (i8x16.eq (local.get $v1) (v128.const i8x16 34 34 34 34 34 34 34 34 34 34 34 34 34 34 34 34))) (i32.const 16))))
          (i64.shl (i64.extend_i32_u (i32.or
            (i8x16.bitmask (i8x16.eq (local.get $v2) (v128.const i8x16 34 34 34 34 34 34 34 34 34 34 34 34 34 34 34 34)))
            (i32.shl (i8x16.bitmask (i8x16.eq (local.get $v3) (v128.const i8x16 34 34 34 34 34 34 34 34 34 34 34 34 34 34 34 34))) (i32.const 16))))
            (i64.const 32))))

        ;; b: backslashes. Any backslash may spell a poisoned key: flagged, and escapes resolved.
        ;; Most bodies have none: one test on the four compares, the bitmasks only when one is set.
        (local.set $w0 (i8x16.eq (local.get $v0) (v128.const i8x16 92 92 92 92 92 92 92 92 92 92 92 92 92 92 92 92)))
        (local.set $w1 (i8x16.eq (local.get $v1) (v128.const i8x16 92 92 92 92 92 92 92 92 92 92 92 92 92 92 92 92)))
        (local.set $w2 (i8x16.eq (local.get $v2) (v128.const i8x16 92 92 92 92 92 92 92 92 92 92 92 92 92 92 92 92)))
        (local.set $w3 (i8x16.eq (local.get $v3) (v128.const i8x16 92 92 92 92 92 92 92 92 92 92 92 92 92 92 92 92)))
        (local.set $b (i64.const 0))
        (if (v128.any_true (v128.or (v128.or (local.get $w0) (local.get $w1)) (v128.or (local.get $w2) (local.get $w3))))
          (then
            (local.set $b (i64.or
              (i64.extend_i32_u (i32.or
                (i8x16.bitmask (local.get $w0))
                (i32.shl (i8x16.bitmask (local.get $w1)) (i32.const 16))))
              (i64.shl (i64.extend_i32_u (i32.or
                (i8x16.bitmask (local.get $w2))
                (i32.shl (i8x16.bitmask (local.get $w3)) (i32.const 16))))
                (i64.const 32))))))

        (if (i64.ne (i64.or (local.get $b) (local.get $nextEsc)) (i64.const 0))
          (then
            (if (i64.ne (local.get $b) (i64.const 0))
              (then (local.set $flags (i32.or (local.get $flags) (i32.const 4)))))
            ;; simdjson's escape scanner: codes marks each backslash that escapes and the
            ;; character after an odd run; XOR with the backslashes leaves the escaped characters.
            (local.set $m (i64.and (local.get $b) (i64.xor (local.get $nextEsc) (i64.const -1))))
            (local.set $codes (i64.xor
              (i64.sub
                (i64.or (i64.shl (local.get $m) (i64.const 1)) (i64.const 0xAAAAAAAAAAAAAAAA))
                (local.get $m))
              (i64.const 0xAAAAAAAAAAAAAAAA)))
            ;; escaped characters: only quotes matter, they no longer open or close strings
            (local.set $q (i64.and (local.get $q) (i64.xor
              (i64.xor (local.get $codes) (i64.or (local.get $b) (local.get $nextEsc)))
              (i64.const -1))))
            (local.set $nextEsc (i64.shr_u (i64.and (local.get $codes) (local.get $b)) (i64.const 63)))))

        ;; s: inside a string (opening quote included, closing quote excluded)
        (local.set $s (local.get $q))
        (local.set $s (i64.xor (local.get $s) (i64.shl (local.get $s) (i64.const 1))))
        (local.set $s (i64.xor (local.get $s) (i64.shl (local.get $s) (i64.const 2))))
        (local.set $s (i64.xor (local.get $s) (i64.shl (local.get $s) (i64.const 4))))
        (local.set $s (i64.xor (local.get $s) (i64.shl (local.get $s) (i64.const 8))))
        (local.set $s (i64.xor (local.get $s) (i64.shl (local.get $s) (i64.const 16))))
        (local.set $s (i64.xor (local.get $s) (i64.shl (local.get $s) (i64.const 32))))
        (local.set $s (i64.xor (local.get $s) (local.get $inStr)))
        (local.set $inStr (i64.shr_s (local.get $s) (i64.const 63)))
        ;; from here on, m = outside strings
        (local.set $m (i64.xor (local.get $s) (i64.const -1)))

        ;; w = byte | 0x20: `[` `{` become 0x7B, `]` `}` 0x7D, `E` 0x65; nothing else maps there
        (local.set $w0 (v128.or (local.get $v0) (v128.const i8x16 32 32 32 32 32 32 32 32 32 32 32 32 32 32 32 32)))
        (local.set $w1 (v128.or (local.get $v1) (v128.const i8x16 32 32 32 32 32 32 32 32 32 32 32 32 32 32 32 32)))
        (local.set $w2 (v128.or (local.get $v2) (v128.const i8x16 32 32 32 32 32 32 32 32 32 32 32 32 32 32 32 32)))
        (local.set $w3 (v128.or (local.get $v3) (v128.const i8x16 32 32 32 32 32 32 32 32 32 32 32 32 32 32 32 32)))

        ;; o: `{` `[` outside strings
        (local.set $o (i64.and (local.get $m) (i64.or
          (i64.extend_i32_u (i32.or
            (i8x16.bitmask (i8x16.eq (local.get $w0) (v128.const i8x16 123 123 123 123 123 123 123 123 123 123 123 123 123 123 123 123)))
            (i32.shl (i8x16.bitmask (i8x16.eq (local.get $w1) (v128.const i8x16 123 123 123 123 123 123 123 123 123 123 123 123 123 123 123 123))) (i32.const 16))))
          (i64.shl (i64.extend_i32_u (i32.or
            (i8x16.bitmask (i8x16.eq (local.get $w2) (v128.const i8x16 123 123 123 123 123 123 123 123 123 123 123 123 123 123 123 123)))
            (i32.shl (i8x16.bitmask (i8x16.eq (local.get $w3) (v128.const i8x16 123 123 123 123 123 123 123 123 123 123 123 123 123 123 123 123))) (i32.const 16))))
            (i64.const 32)))))

        ;; c: `}` `]` outside strings
        (local.set $c (i64.and (local.get $m) (i64.or
          (i64.extend_i32_u (i32.or
            (i8x16.bitmask (i8x16.eq (local.get $w0) (v128.const i8x16 125 125 125 125 125 125 125 125 125 125 125 125 125 125 125 125)))
            (i32.shl (i8x16.bitmask (i8x16.eq (local.get $w1) (v128.const i8x16 125 125 125 125 125 125 125 125 125 125 125 125 125 125 125 125))) (i32.const 16))))
          (i64.shl (i64.extend_i32_u (i32.or
            (i8x16.bitmask (i8x16.eq (local.get $w2) (v128.const i8x16 125 125 125 125 125 125 125 125 125 125 125 125 125 125 125 125)))
            (i32.shl (i8x16.bitmask (i8x16.eq (local.get $w3) (v128.const i8x16 125 125 125 125 125 125 125 125 125 125 125 125 125 125 125 125))) (i32.const 16))))
            (i64.const 32)))))

        ;; depth: popcounts when this block cannot pass the limit, bracket by bracket otherwise
        (local.set $t (i32.wrap_i64 (i64.popcnt (local.get $o))))
        (if (i32.le_s (i32.add (local.get $depth) (local.get $t)) (local.get $max))
          (then
            (local.set $depth (i32.sub
              (i32.add (local.get $depth) (local.get $t))
              (i32.wrap_i64 (i64.popcnt (local.get $c))))))
          (else
            (local.set $cand (i64.or (local.get $o) (local.get $c)))
            (loop $brackets
              (if (i64.ne (local.get $cand) (i64.const 0))
                (then
                  (if (i64.ne (i64.and (local.get $o) (i64.and (local.get $cand) (i64.sub (i64.const 0) (local.get $cand)))) (i64.const 0))
                    (then
                      (local.set $depth (i32.add (local.get $depth) (i32.const 1)))
                      (if (i32.gt_s (local.get $depth) (local.get $max))
                        (then (return (i32.or (local.get $flags) (i32.const 1))))))
                    (else (local.set $depth (i32.sub (local.get $depth) (i32.const 1)))))
                  (local.set $cand (i64.and (local.get $cand) (i64.sub (local.get $cand) (i64.const 1))))
                  (br $brackets))))))

        ;; d: digits outside strings. byte + 0x50 wraps '0'..'9' (only them) onto -128..-119, so one
        ;; signed compare finds them (an unsigned one takes several instructions on x64)
        (local.set $d (i64.and (local.get $m) (i64.or
          (i64.extend_i32_u (i32.or
            (i8x16.bitmask (i8x16.lt_s (i8x16.add (local.get $v0) (v128.const i8x16 80 80 80 80 80 80 80 80 80 80 80 80 80 80 80 80)) (v128.const i8x16 -118 -118 -118 -118 -118 -118 -118 -118 -118 -118 -118 -118 -118 -118 -118 -118)))
            (i32.shl (i8x16.bitmask (i8x16.lt_s (i8x16.add (local.get $v1) (v128.const i8x16 80 80 80 80 80 80 80 80 80 80 80 80 80 80 80 80)) (v128.const i8x16 -118 -118 -118 -118 -118 -118 -118 -118 -118 -118 -118 -118 -118 -118 -118 -118))) (i32.const 16))))
          (i64.shl (i64.extend_i32_u (i32.or
            (i8x16.bitmask (i8x16.lt_s (i8x16.add (local.get $v2) (v128.const i8x16 80 80 80 80 80 80 80 80 80 80 80 80 80 80 80 80)) (v128.const i8x16 -118 -118 -118 -118 -118 -118 -118 -118 -118 -118 -118 -118 -118 -118 -118 -118)))
            (i32.shl (i8x16.bitmask (i8x16.lt_s (i8x16.add (local.get $v3) (v128.const i8x16 80 80 80 80 80 80 80 80 80 80 80 80 80 80 80 80)) (v128.const i8x16 -118 -118 -118 -118 -118 -118 -118 -118 -118 -118 -118 -118 -118 -118 -118 -118))) (i32.const 16))))
            (i64.const 32)))))

        ;; digit runs of 210 or more: the run carried in plus this block's leading digits; the
        ;; run carried out is this block's trailing digits (all 64 when the block is all digits)
        (local.set $t (i32.add (local.get $run) (i32.wrap_i64 (i64.ctz (i64.xor (local.get $d) (i64.const -1))))))
        (if (i32.ge_u (local.get $t) (i32.const 210))
          (then (local.set $flags (i32.or (local.get $flags) (i32.const 2)))))
        (local.set $run
          (select
            (local.get $t)
            (i32.wrap_i64 (i64.clz (i64.xor (local.get $d) (i64.const -1))))
            (i64.eq (local.get $d) (i64.const -1))))

        ;; e: `e` `E` right after a digit, outside strings; the exponent's digits are read byte by byte
        (local.set $e (i64.and (local.get $m) (i64.or
          (i64.extend_i32_u (i32.or
            (i8x16.bitmask (i8x16.eq (local.get $w0) (v128.const i8x16 101 101 101 101 101 101 101 101 101 101 101 101 101 101 101 101)))
            (i32.shl (i8x16.bitmask (i8x16.eq (local.get $w1) (v128.const i8x16 101 101 101 101 101 101 101 101 101 101 101 101 101 101 101 101))) (i32.const 16))))
          (i64.shl (i64.extend_i32_u (i32.or
            (i8x16.bitmask (i8x16.eq (local.get $w2) (v128.const i8x16 101 101 101 101 101 101 101 101 101 101 101 101 101 101 101 101)))
            (i32.shl (i8x16.bitmask (i8x16.eq (local.get $w3) (v128.const i8x16 101 101 101 101 101 101 101 101 101 101 101 101 101 101 101 101))) (i32.const 16))))
            (i64.const 32)))))
        (local.set $e (i64.and (local.get $e) (i64.or (i64.shl (local.get $d) (i64.const 1)) (local.get $prevDigit))))
        (local.set $prevDigit (i64.shr_u (local.get $d) (i64.const 63)))
        (loop $exponents
          (if (i64.ne (local.get $e) (i64.const 0))
            (then
              ;; p: first byte after the `e`, past a `+`
              (local.set $p (i32.add (i32.add (local.get $i) (i32.wrap_i64 (i64.ctz (local.get $e)))) (i32.const 1)))
              (if (i32.eq (i32.load8_u (local.get $p)) (i32.const 43))
                (then (local.set $p (i32.add (local.get $p) (i32.const 1)))))
              (if (i32.and
                    (i32.and
                      (i32.lt_u (i32.sub (i32.load8_u offset=0 (local.get $p)) (i32.const 48)) (i32.const 10))
                      (i32.lt_u (i32.sub (i32.load8_u offset=1 (local.get $p)) (i32.const 48)) (i32.const 10)))
                    (i32.lt_u (i32.sub (i32.load8_u offset=2 (local.get $p)) (i32.const 48)) (i32.const 10)))
                (then (local.set $flags (i32.or (local.get $flags) (i32.const 2)))))
              (local.set $e (i64.and (local.get $e) (i64.sub (local.get $e) (i64.const 1))))
              (br $exponents))))

        ;; string literals of exactly 9 or 11 bytes that open in the previous block. The bytes after
        ;; the opening quote at $p are compared with `__proto__"` / `constructor"` in place: the
        ;; closing quote sits 10 or 12 bytes after $p and the words have none, so a match is the
        ;; whole literal. Inlined: V8 does not inline WebAssembly calls, and a call per 9- or
        ;; 11-byte string cost ~1.1 of the 12.6 µs the bench `bulk` body took (321 such strings).
        (local.set $open (i64.and (local.get $q) (local.get $s)))
        (local.set $close (i64.and (local.get $q) (local.get $m)))
        (if (i32.eqz (i32.and (local.get $flags) (i32.const 4)))
          (then
            (local.set $cand (i64.and (local.get $prevOpen) (i64.or
              (i64.or (i64.shr_u (local.get $prevClose) (i64.const 10)) (i64.shl (local.get $close) (i64.const 54)))
              (i64.or (i64.shr_u (local.get $prevClose) (i64.const 12)) (i64.shl (local.get $close) (i64.const 52))))))
            (loop $words
              (if (i64.ne (local.get $cand) (i64.const 0))
                (then
                  (local.set $p (i32.add (i32.sub (local.get $i) (i32.const 64)) (i32.wrap_i64 (i64.ctz (local.get $cand)))))
                  (if (i64.eq (i64.load offset=1 align=1 (local.get $p)) (i64.const 0x5F6F746F72705F5F))  ;; "__proto_"
                    (then (if (i32.eq (i32.load16_u offset=9 align=1 (local.get $p)) (i32.const 0x225F))     ;; "_\""
                      (then (local.set $flags (i32.or (local.get $flags) (i32.const 4)))))))
                  (if (i64.eq (i64.load offset=1 align=1 (local.get $p)) (i64.const 0x63757274736E6F63))  ;; "construc"
                    (then (if (i32.eq (i32.load offset=9 align=1 (local.get $p)) (i32.const 0x22726F74))     ;; "tor\""
                      (then (local.set $flags (i32.or (local.get $flags) (i32.const 4)))))))
                  (local.set $cand (i64.and (local.get $cand) (i64.sub (local.get $cand) (i64.const 1))))
                  (br $words))))))
        (local.set $prevOpen (local.get $open))
        (local.set $prevClose (local.get $close))

        (local.set $i (i32.add (local.get $i) (i32.const 64)))
        (br $blocks)))

    ;; the last block's strings: nothing after the body is a quote (spaces)
    (if (i32.eqz (i32.and (local.get $flags) (i32.const 4)))
      (then
        (local.set $cand (i64.and (local.get $prevOpen) (i64.or
          (i64.shr_u (local.get $prevClose) (i64.const 10))
          (i64.shr_u (local.get $prevClose) (i64.const 12)))))
        (loop $lastWords
          (if (i64.ne (local.get $cand) (i64.const 0))
            (then
              (local.set $p (i32.add (i32.sub (local.get $i) (i32.const 64)) (i32.wrap_i64 (i64.ctz (local.get $cand)))))
              (if (i64.eq (i64.load offset=1 align=1 (local.get $p)) (i64.const 0x5F6F746F72705F5F))  ;; "__proto_"
                (then (if (i32.eq (i32.load16_u offset=9 align=1 (local.get $p)) (i32.const 0x225F))     ;; "_\""
                  (then (local.set $flags (i32.or (local.get $flags) (i32.const 4)))))))
              (if (i64.eq (i64.load offset=1 align=1 (local.get $p)) (i64.const 0x63757274736E6F63))  ;; "construc"
                (then (if (i32.eq (i32.load offset=9 align=1 (local.get $p)) (i32.const 0x22726F74))     ;; "tor\""
                  (then (local.set $flags (i32.or (local.get $flags) (i32.const 4)))))))
              (local.set $cand (i64.and (local.get $cand) (i64.sub (local.get $cand) (i64.const 1))))
              (br $lastWords))))))
    (i32.or (local.get $flags) (select (i32.const 8) (i32.const 0) (i32.ne (i8x16.bitmask (local.get $high)) (i32.const 0)))))
)
