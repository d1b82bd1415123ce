// Debug output behind a define: compile with -DVV_DEBUG_PRINTF=1 to enable debugPrintfEXT; by
// default every DEBUG_PRINT* expands to nothing, so the shipped workloads print nothing.
#ifndef VV_DEBUG_GLSL
#define VV_DEBUG_GLSL

// Token pasting builds per-workload names, e.g. VV_NAME(pt, MaxDepth) -> pt_MaxDepth.
#define VV_PASTE(a, b) a##b
#define VV_NAME(prefix, name) VV_PASTE(prefix, _##name)

#if defined(VV_DEBUG_PRINTF) && VV_DEBUG_PRINTF != 0
#extension GL_EXT_debug_printf : enable
#define DEBUG_PRINT1(fmt, a) debugPrintfEXT(fmt, a)
#define DEBUG_PRINT2(fmt, a, b) debugPrintfEXT(fmt, a, b)
#define DEBUG_TRACE_LINE() debugPrintfEXT("reached line %d\n", __LINE__)
#else
#define DEBUG_PRINT1(fmt, a)
#define DEBUG_PRINT2(fmt, a, b)
#define DEBUG_TRACE_LINE()
#endif

// Stringification (#) is standard C preprocessing but glslang's preprocessor does not implement
// it, so it is only used when a front end that supports it defines VV_STRINGIFY_LABELS.
#if defined(VV_STRINGIFY_LABELS)
#define VV_LABEL(x) #x
#endif

#endif // VV_DEBUG_GLSL
