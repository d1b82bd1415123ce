import test from 'ava';
import { ConfigError } from '../../../src/sim/config/config-error.js';
import { parseDramTiming } from '../../../src/sim/config/dram-timing.js';

test('reads the GPGPU-Sim timing string, quoted or not', (t) => {
  const d = parseDramTiming('"nbk=16:CCD=2:RRD=6:RCD=12:RAS=28:RP=12:RC=40:CL=12:WL=4:CDLR=5:WR=12:nbkgrp=1:CCDL=0:RTPL=0"', 'k');
  t.is(d.nbk, 16);
  t.is(d.RCD, 12);
  t.is(d.RAS, 28);
  t.is(d.WL, 4);
});

test('an unknown field is named with a suggestion', (t) => {
  const e = t.throws(() => parseDramTiming('nbk=16:CCD=2:RCD=12:RAS=28:RP=12:CLL=12', 'gpgpu_dram_timing_opt'), { instanceOf: ConfigError });
  t.regex(e!.message, /unknown DRAM timing field "CLL".*"CL"/);
});

test('a missing required field is reported', (t) => {
  t.throws(() => parseDramTiming('nbk=16:CCD=2', 'gpgpu_dram_timing_opt'), { message: /missing RCD=/ });
});
