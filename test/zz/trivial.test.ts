import test from 'ava';
test('x', (t) => t.pass());
