import test from 'ava';
import { checkLines } from './fixtures/check-lines.js';

const OUT = `fn %1 @main() -> void {
^b2 "entry":
  %3: u32 = load %9   ; 4:1
  %4: u32 = binary add %3 %3   ; 5:1
  %5 = store %9 %4   ; 6:1
  %6 = return   ; 7:1
}`;

test('CHECK and CHECK-NEXT match in order, with captures and inline regexes', (t) => {
  t.deepEqual(checkLines(OUT, `
; CHECK: [[V:%\\d+]]: u32 = load %9
; CHECK-NEXT: {{%\\d+}}: u32 = binary add [[V]] [[V]]
; CHECK: store %9
; CHECK-NEXT: return`), []);
});

test('failures name the directive and what was found instead', (t) => {
  t.deepEqual(checkLines(OUT, '; CHECK: load\n; CHECK-NEXT: store'), [
    'check line 2 (CHECK-NEXT: store): output line 4 does not match: %4: u32 = binary add %3 %3   ; 5:1',
  ]);
  t.deepEqual(checkLines(OUT, '; CHECK: store\n; CHECK: load'), [
    'check line 2 (CHECK: load): no match at or after output line 6',
  ]);
  t.deepEqual(checkLines(OUT, '; CHECK: [[V:%\\d+]]: u32 = load\n; CHECK: binary add %4'), [
    'check line 2 (CHECK: binary add %4): no match at or after output line 4',
  ]);
  t.deepEqual(checkLines(OUT, '; CHECK: [[W]] = load'), ['check line 1 (CHECK: [[W]] = load): variable [[W]] used before it was captured']);
  t.deepEqual(checkLines(OUT, 'nothing here'), ['no CHECK directives found']);
});

test('CHECK-NOT applies between its neighbours', (t) => {
  t.deepEqual(checkLines(OUT, '; CHECK: load\n; CHECK-NOT: store\n; CHECK: binary'), []);
  t.deepEqual(checkLines(OUT, '; CHECK: load\n; CHECK-NOT: binary\n; CHECK: store'), [
    'check line 2 (CHECK-NOT: binary): found on output line 4: %4: u32 = binary add %3 %3   ; 5:1',
  ]);
  t.deepEqual(checkLines(OUT, '; CHECK: store\n; CHECK-NOT: load'), []);
  t.is(checkLines(OUT, '; CHECK: entry\n; CHECK-NOT: return').length, 1);
});

test('whitespace runs match any whitespace', (t) => {
  t.deepEqual(checkLines(OUT, '; CHECK: %6 =    return ; 7:1'), []);
});
