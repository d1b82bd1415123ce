/**
 * vvision's limit on the size of one shader after preprocessing: MAX_TOKENS tokens, counting the
 * tokens the parser receives and, separately, the tokens macro expansion produces (so a macro
 * that doubles 39 times stops after MAX_TOKENS tokens, not after 2^39). Past it the shader gets
 * one located error at the token (or macro invocation) that crossed it, before any parsing.
 *
 * Why this number: the front end's time and memory grow linearly with tokens (about 45 us and
 * 2.5 KB per token on a loaded machine: a 125,000-term sum, 250,000 tokens, compiles in ~11 s and
 * ~0.6 GB), while the largest real shaders here (LumiBench's path tracer with its includes) are
 * under 20,000 tokens and the 20,000-term generated sums of issue 14 are 40,000. glslang has no
 * such limit and spends 7.6 s rejecting the doubling macro on its own. Library callers raise it
 * with `ParseOptions.maxTokens`.
 */
export const MAX_TOKENS = 250_000;
