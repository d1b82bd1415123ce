/*
 * vvision-host: the native Vulkan host of `vvision device` (src/device). It runs one device bundle
 * (written by src/device/device-bundle.ts) on a real Vulkan implementation — a GPU or Mesa's
 * lavapipe — and writes what the pipeline wrote, for vvision to turn into a run directory:
 *
 *   vvision-host [--device N] [--repeat N] [--timeout S] [--validate] [--list] BUNDLE_DIR OUT_DIR
 *
 * --timeout S (default 60): a submission that has not finished after S seconds (a shader that never
 * ends, or a hung GPU) stops the host with exit status 4 and a message saying so, instead of waiting
 * for ever.
 *
 * BUNDLE_DIR/bundle.txt (one item per line, whitespace-separated; the format's only reader):
 *   launch W H D | recursion N | subgroup S (0: the device's own) | push FILE BYTES
 *   stage KIND FILE.spv ENTRY          KIND: rgen rmiss rchit rahit rint rcall; listed in index order
 *   group general S | group triangles CHIT AHIT | group procedural CHIT AHIT INT   (-1: none)
 *   sbt RAYGEN MISS HIT CALLABLE       group counts, groups listed in that order
 *   record GROUP FILE BYTES            shaderRecordEXT data placed after the group's handle
 *   spec ID U32                        a specialization constant (4 bytes) for every stage
 *   blas N                             starts BLAS N; its geometries follow:
 *   tris VERTEX_FILE VERTICES INDEX_FILE INDICES FLAGS    (float3 vertices, uint32 indices)
 *   aabbs FILE COUNT FLAGS             (VkAabbPositionsKHR, stride 24)
 *   instance BLAS CUSTOM MASK SBT_OFFSET FLAGS T0 .. T11  (3x4 row-major object-to-world)
 *   buffer SET BINDING storage|uniform FILE|- BYTES OUT|- ZERO   (- : zero-filled; OUT: read back
 *                                      into OUT_DIR/OUT.bin; ZERO 1: zeroed before every repetition)
 *   image SET BINDING VKFORMAT TEXEL_BYTES W H OUT|-
 *   as SET BINDING
 *   texture SET BINDING INDEX COUNT VKFORMAT TEXEL_BYTES W H FILTER WRAP FILE [LEVELS]
 *                                      element INDEX of a combined-image-sampler array of COUNT;
 *                                      LEVELS mip levels (default 1), each half the one above (at
 *                                      least 1), packed level 0 first in FILE; sampled with
 *                                      VK_SAMPLER_MIPMAP_MODE_NEAREST and no LOD clamp;
 *                                      FILTER 0 nearest 1 linear; WRAP 0 repeat 1 mirrored 2 clamp
 *   memory FILE BYTES SIMADDR          device memory no descriptor binds (buffer_reference only)
 *   A buffer line may end with SIMADDR: the address the simulator gave it.
 *   reloc FILE OFFSET SIMVALUE         the 64-bit word at OFFSET of FILE's bytes (a buffer's, push.bin,
 *                                      a record's) is a simulated address: written as the device
 *                                      address of the buffer or memory holding SIMVALUE
 *   frames N                           a sequence of N launches over the same resources; then per frame:
 *   frame F                            what the host does before launch F (F >= 1):
 *   write FILE OFFSET PATCH BYTES      PATCH's bytes into FILE's buffer at OFFSET (relocations applied)
 *   clear SET BINDING                  a storage image zeroed
 *   framepush FILE                     the push constants from FILE
 *
 * OUT_DIR gets every OUT.bin (buffers whole, except the instrumentation buffer (ZERO 1): its header
 * and the entry words written, or all of it when it overflowed; images tightly packed rows) and device.json: the
 * device, its subgroup size, the subgroup size the pipeline ran with, the trace dispatch's
 * timestamps (vkCmdWriteTimestamp around vkCmdTraceRaysKHR) per repetition and their median, and
 * with --validate the number of validation-layer messages. The outputs are those of the first
 * repetition; the others are timed only. With `frames N` (N > 1) the launches run once each, in
 * order, each timed; every OUT is also written after each frame as OUT.fNNN.bin, and a buffer
 * with ZERO 1 (the instrumentation buffer) is read back and zeroed after every frame.
 *
 * The Vulkan loader is opened at run time (dlopen), so the host builds with the Vulkan headers
 * alone and says clearly when no loader or no ray tracing device is present (exit 3).
 */
#define VK_NO_PROTOTYPES
#include <vulkan/vulkan.h>
#include <dlfcn.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXN 256
#define EXIT_NO_DEVICE 3
#define EXIT_TIMEOUT 4

static void die(int code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  fprintf(stderr, "vvision-host: ");
  vfprintf(stderr, fmt, ap);
  fprintf(stderr, "\n");
  va_end(ap);
  exit(code);
}

#define VK(call) do { VkResult r_ = (call); if (r_ != VK_SUCCESS) die(2, "%s failed: VkResult %d (line %d)", #call, (int)r_, __LINE__); } while (0)

/* ---- Vulkan entry points, loaded at run time ---- */
static PFN_vkGetInstanceProcAddr gipa;
#define FN(name) static PFN_##name name;
#define INSTANCE_FNS(X) X(vkEnumeratePhysicalDevices) X(vkGetPhysicalDeviceProperties2) X(vkGetPhysicalDeviceFeatures2) \
  X(vkGetPhysicalDeviceQueueFamilyProperties) X(vkGetPhysicalDeviceMemoryProperties) X(vkCreateDevice) X(vkGetDeviceProcAddr) \
  X(vkEnumerateDeviceExtensionProperties) X(vkDestroyInstance)
#define DEVICE_FNS(X) X(vkGetDeviceQueue) X(vkCreateBuffer) X(vkGetBufferMemoryRequirements) X(vkAllocateMemory) X(vkBindBufferMemory) \
  X(vkMapMemory) X(vkGetBufferDeviceAddress) X(vkCreateImage) X(vkGetImageMemoryRequirements) X(vkBindImageMemory) X(vkCreateImageView) \
  X(vkCreateShaderModule) X(vkCreateDescriptorSetLayout) X(vkCreatePipelineLayout) X(vkCreateDescriptorPool) X(vkAllocateDescriptorSets) \
  X(vkUpdateDescriptorSets) X(vkCreateCommandPool) X(vkAllocateCommandBuffers) X(vkBeginCommandBuffer) X(vkEndCommandBuffer) \
  X(vkQueueSubmit) X(vkQueueWaitIdle) X(vkCmdPipelineBarrier) X(vkCmdBindPipeline) X(vkCmdBindDescriptorSets) X(vkCmdPushConstants) \
  X(vkCmdCopyImageToBuffer) X(vkCmdCopyBufferToImage) X(vkCreateSampler) X(vkCmdClearColorImage) X(vkCmdFillBuffer) X(vkCmdWriteTimestamp) X(vkCmdResetQueryPool) \
  X(vkCreateQueryPool) X(vkGetQueryPoolResults) X(vkResetCommandBuffer) X(vkDeviceWaitIdle) \
  X(vkCreateFence) X(vkWaitForFences) X(vkDestroyFence) \
  X(vkCreateAccelerationStructureKHR) X(vkGetAccelerationStructureBuildSizesKHR) X(vkCmdBuildAccelerationStructuresKHR) \
  X(vkGetAccelerationStructureDeviceAddressKHR) X(vkCreateRayTracingPipelinesKHR) X(vkGetRayTracingShaderGroupHandlesKHR) \
  X(vkCmdTraceRaysKHR)
INSTANCE_FNS(FN)
DEVICE_FNS(FN)
static PFN_vkCreateInstance vkCreateInstance_;
static PFN_vkEnumerateInstanceLayerProperties vkEnumerateInstanceLayerProperties_;
static PFN_vkCreateDebugUtilsMessengerEXT vkCreateDebugUtilsMessengerEXT_;

/* ---- the bundle ---- */
typedef struct { int kind; char file[512]; char entry[128]; } Stage; /* kind: VkShaderStageFlagBits */
typedef struct { VkRayTracingShaderGroupTypeKHR type; int general, chit, ahit, isect; char rec[512]; int recBytes; } Group;
typedef struct { int aabbs; char vfile[512]; uint32_t vcount; char ifile[512]; uint32_t icount; uint32_t flags; } Geom;
typedef struct { int first, count; } Blas;
typedef struct { int blas; uint32_t custom, mask, sbtOffset, flags; float t[12]; } Inst;
typedef struct { int set, binding; VkDescriptorType type; char file[512]; uint64_t bytes; char out[128]; int zero;
  VkFormat format; int texel, w, h; VkBuffer buf; VkDeviceMemory mem; void *map; VkImage image; VkImageView view;
  uint64_t simAddr; int memoryOnly, index, count, filter, wrap, levels; VkSampler sampler; } Res;
typedef struct { char file[512]; uint64_t offset, value; } Reloc;
/* Per-frame host work: kind 0 write (file, offset, patch), 1 clear (set, binding), 2 push (patch). */
typedef struct { int frame, kind, set, binding; char file[512]; uint64_t offset; char patch[512]; uint64_t bytes; } FrameOp;

static uint32_t timeoutS = 60;
static uint32_t launchW = 1, launchH = 1, launchD = 1, recursion = 1, subgroupWanted = 0;
static Stage stages[MAXN]; static int nStages;
static Group groups[MAXN]; static int nGroups;
static int nRaygen, nMiss, nHit, nCall;
static uint32_t specIds[MAXN], specVals[MAXN]; static int nSpec;
static Geom geoms[4096]; static int nGeoms;
static Blas blases[1024]; static int nBlas;
static Inst *insts; static int nInsts, capInsts;
static Res res[MAXN]; static int nRes;
static char pushFile[512]; static int pushBytes;
static Reloc *relocs; static int nRelocs, capRelocs;
static FrameOp *frameOps; static int nFrameOps, capFrameOps;
static int nFrames = 1, curFrame = 0;
static char bundleDir[1024];

static char *pathIn(const char *dir, const char *name) {
  static char buf[4][2048]; static int k;
  k = (k + 1) & 3;
  snprintf(buf[k], sizeof buf[k], "%s/%s", dir, name);
  return buf[k];
}

static void *readFile(const char *name, uint64_t *size) {
  FILE *f = fopen(pathIn(bundleDir, name), "rb");
  if (!f) die(2, "cannot open %s", pathIn(bundleDir, name));
  fseek(f, 0, SEEK_END);
  long n = ftell(f);
  fseek(f, 0, SEEK_SET);
  void *p = malloc(n > 0 ? (size_t)n : 1);
  if (n > 0 && fread(p, 1, (size_t)n, f) != (size_t)n) die(2, "cannot read %s", name);
  fclose(f);
  *size = (uint64_t)n;
  return p;
}

/* Whether a stage's SPIR-V declares OpCapability `cap` (an optional extension is enabled only for a
 * pipeline that uses it: the validation layers of older SDKs do not know every extension). */
static int stagesDeclareCapability(uint32_t cap) {
  for (int i = 0; i < nStages; i++) {
    uint64_t size;
    uint32_t *w = readFile(stages[i].file, &size);
    uint64_t n = size / 4;
    int found = 0;
    for (uint64_t k = 5; k < n && !found;) {
      uint32_t op = w[k] & 0xffff, len = w[k] >> 16;
      if (len == 0) break;
      if (op == 17 /* OpCapability */ && k + 1 < n && w[k + 1] == cap) found = 1;
      else if (op != 17 && op != 10 /* OpExtension */ && op != 11 /* OpExtInstImport */) break; /* capabilities come first */
      k += len;
    }
    free(w);
    if (found) return 1;
  }
  return 0;
}

static int stageKind(const char *s) {
  if (!strcmp(s, "rgen")) return VK_SHADER_STAGE_RAYGEN_BIT_KHR;
  if (!strcmp(s, "rmiss")) return VK_SHADER_STAGE_MISS_BIT_KHR;
  if (!strcmp(s, "rchit")) return VK_SHADER_STAGE_CLOSEST_HIT_BIT_KHR;
  if (!strcmp(s, "rahit")) return VK_SHADER_STAGE_ANY_HIT_BIT_KHR;
  if (!strcmp(s, "rint")) return VK_SHADER_STAGE_INTERSECTION_BIT_KHR;
  if (!strcmp(s, "rcall")) return VK_SHADER_STAGE_CALLABLE_BIT_KHR;
  die(2, "bundle: unknown stage %s", s);
  return 0;
}

static void readBundle(void) {
  FILE *f = fopen(pathIn(bundleDir, "bundle.txt"), "r");
  if (!f) die(2, "%s: no bundle.txt", bundleDir);
  char line[8192];
  int lineNo = 0;
  while (fgets(line, sizeof line, f)) {
    lineNo++;
    char w[64] = "";
    if (sscanf(line, "%63s", w) != 1 || w[0] == '#') continue;
    char *rest = strstr(line, w) + strlen(w);
    int ok = 1;
    if (!strcmp(w, "vvision-device-bundle")) {
    } else if (!strcmp(w, "launch")) ok = sscanf(rest, "%u %u %u", &launchW, &launchH, &launchD) == 3;
    else if (!strcmp(w, "recursion")) ok = sscanf(rest, "%u", &recursion) == 1;
    else if (!strcmp(w, "subgroup")) ok = sscanf(rest, "%u", &subgroupWanted) == 1;
    else if (!strcmp(w, "push")) ok = sscanf(rest, "%511s %d", pushFile, &pushBytes) == 2;
    else if (!strcmp(w, "stage")) {
      char kind[16];
      Stage *s = &stages[nStages++];
      ok = sscanf(rest, "%15s %511s %127s", kind, s->file, s->entry) == 3;
      if (ok) s->kind = stageKind(kind);
    } else if (!strcmp(w, "group")) {
      char type[32];
      Group *g = &groups[nGroups++];
      memset(g, 0, sizeof *g);
      g->general = g->chit = g->ahit = g->isect = -1;
      ok = sscanf(rest, "%31s", type) == 1;
      char *args = strstr(rest, type) + strlen(type);
      if (!strcmp(type, "general")) { g->type = VK_RAY_TRACING_SHADER_GROUP_TYPE_GENERAL_KHR; ok = sscanf(args, "%d", &g->general) == 1; }
      else if (!strcmp(type, "triangles")) { g->type = VK_RAY_TRACING_SHADER_GROUP_TYPE_TRIANGLES_HIT_GROUP_KHR; ok = sscanf(args, "%d %d", &g->chit, &g->ahit) == 2; }
      else { g->type = VK_RAY_TRACING_SHADER_GROUP_TYPE_PROCEDURAL_HIT_GROUP_KHR; ok = sscanf(args, "%d %d %d", &g->chit, &g->ahit, &g->isect) == 3; }
    } else if (!strcmp(w, "sbt")) ok = sscanf(rest, "%d %d %d %d", &nRaygen, &nMiss, &nHit, &nCall) == 4;
    else if (!strcmp(w, "record")) {
      int gi; char file[512]; int bytes;
      ok = sscanf(rest, "%d %511s %d", &gi, file, &bytes) == 3 && gi >= 0 && gi < nGroups;
      if (ok) { strcpy(groups[gi].rec, file); groups[gi].recBytes = bytes; }
    } else if (!strcmp(w, "spec")) { ok = sscanf(rest, "%u %u", &specIds[nSpec], &specVals[nSpec]) == 2; nSpec++; }
    else if (!strcmp(w, "blas")) { blases[nBlas].first = nGeoms; blases[nBlas].count = 0; nBlas++; }
    else if (!strcmp(w, "tris") || !strcmp(w, "aabbs")) {
      if (nBlas == 0) die(2, "bundle.txt:%d: geometry before any blas", lineNo);
      Geom *g = &geoms[nGeoms++];
      memset(g, 0, sizeof *g);
      g->aabbs = !strcmp(w, "aabbs");
      if (g->aabbs) ok = sscanf(rest, "%511s %u %u", g->vfile, &g->vcount, &g->flags) == 3;
      else ok = sscanf(rest, "%511s %u %511s %u %u", g->vfile, &g->vcount, g->ifile, &g->icount, &g->flags) == 5;
      blases[nBlas - 1].count++;
    } else if (!strcmp(w, "instance")) {
      if (nInsts == capInsts) { capInsts = capInsts ? capInsts * 2 : 64; insts = realloc(insts, sizeof(Inst) * (size_t)capInsts); }
      Inst *in = &insts[nInsts++];
      float *t = in->t;
      ok = sscanf(rest, "%d %u %u %u %u %f %f %f %f %f %f %f %f %f %f %f %f", &in->blas, &in->custom, &in->mask, &in->sbtOffset, &in->flags,
        &t[0], &t[1], &t[2], &t[3], &t[4], &t[5], &t[6], &t[7], &t[8], &t[9], &t[10], &t[11]) == 17;
    } else if (!strcmp(w, "buffer")) {
      Res *r = &res[nRes++];
      memset(r, 0, sizeof *r);
      char type[16]; unsigned long long bytes, sim = 0;
      int n = sscanf(rest, "%d %d %15s %511s %llu %127s %d %llu", &r->set, &r->binding, type, r->file, &bytes, r->out, &r->zero, &sim);
      ok = n == 7 || n == 8;
      r->bytes = bytes;
      r->simAddr = sim;
      r->type = !strcmp(type, "uniform") ? VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER : VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    } else if (!strcmp(w, "image")) {
      Res *r = &res[nRes++];
      memset(r, 0, sizeof *r);
      int fmt;
      ok = sscanf(rest, "%d %d %d %d %d %d %127s", &r->set, &r->binding, &fmt, &r->texel, &r->w, &r->h, r->out) == 7;
      r->format = (VkFormat)fmt;
      r->type = VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
    } else if (!strcmp(w, "memory")) {
      Res *r = &res[nRes++];
      memset(r, 0, sizeof *r);
      unsigned long long bytes, sim;
      ok = sscanf(rest, "%511s %llu %llu", r->file, &bytes, &sim) == 3;
      r->bytes = bytes; r->simAddr = sim; r->memoryOnly = 1; r->set = -1; strcpy(r->out, "-");
      r->type = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
    } else if (!strcmp(w, "texture")) {
      Res *r = &res[nRes++];
      memset(r, 0, sizeof *r);
      int fmt;
      r->levels = 1;
      int got = sscanf(rest, "%d %d %d %d %d %d %d %d %d %d %511s %d", &r->set, &r->binding, &r->index, &r->count, &fmt, &r->texel, &r->w, &r->h,
                       &r->filter, &r->wrap, r->file, &r->levels);
      ok = (got == 11 || got == 12) && r->levels >= 1 && r->levels <= 16;
      r->format = (VkFormat)fmt; strcpy(r->out, "-");
      r->type = VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER;
    } else if (!strcmp(w, "reloc")) {
      if (nRelocs == capRelocs) { capRelocs = capRelocs ? capRelocs * 2 : 256; relocs = realloc(relocs, sizeof(Reloc) * (size_t)capRelocs); }
      Reloc *rl = &relocs[nRelocs++];
      unsigned long long off, val;
      ok = sscanf(rest, "%511s %llu %llu", rl->file, &off, &val) == 3;
      rl->offset = off; rl->value = val;
    } else if (!strcmp(w, "frames")) ok = sscanf(rest, "%d", &nFrames) == 1 && nFrames >= 1;
    else if (!strcmp(w, "frame")) ok = sscanf(rest, "%d", &curFrame) == 1 && curFrame >= 1 && curFrame < nFrames;
    else if (!strcmp(w, "write") || !strcmp(w, "clear") || !strcmp(w, "framepush")) {
      if (nFrameOps == capFrameOps) { capFrameOps = capFrameOps ? capFrameOps * 2 : 64; frameOps = realloc(frameOps, sizeof(FrameOp) * (size_t)capFrameOps); }
      FrameOp *op = &frameOps[nFrameOps++];
      memset(op, 0, sizeof *op);
      op->frame = curFrame;
      unsigned long long off, bytes;
      if (!strcmp(w, "write")) { op->kind = 0; ok = sscanf(rest, "%511s %llu %511s %llu", op->file, &off, op->patch, &bytes) == 4; op->offset = off; op->bytes = bytes; }
      else if (!strcmp(w, "clear")) { op->kind = 1; ok = sscanf(rest, "%d %d", &op->set, &op->binding) == 2; }
      else { op->kind = 2; ok = sscanf(rest, "%511s", op->patch) == 1; }
      ok = ok && curFrame >= 1;
    } else if (!strcmp(w, "as")) {
      Res *r = &res[nRes++];
      memset(r, 0, sizeof *r);
      ok = sscanf(rest, "%d %d", &r->set, &r->binding) == 2;
      r->type = VK_DESCRIPTOR_TYPE_ACCELERATION_STRUCTURE_KHR;
    } else die(2, "bundle.txt:%d: unknown item '%s'", lineNo, w);
    if (!ok) die(2, "bundle.txt:%d: malformed '%s' line", lineNo, w);
    if (nStages >= MAXN || nGroups >= MAXN || nRes >= MAXN || nSpec >= MAXN || nGeoms >= 4096 || nBlas >= 1024) die(2, "bundle.txt:%d: too many items", lineNo);
  }
  fclose(f);
  if (nRaygen != 1 || nRaygen + nMiss + nHit + nCall != nGroups) die(2, "bundle: sbt counts do not match the groups");
}

/* ---- device objects ---- */
static VkInstance instance;
static VkPhysicalDevice phys;
static VkDevice dev;
static VkQueue queue;
static uint32_t queueFamily;
static VkPhysicalDeviceMemoryProperties memProps;
static VkPhysicalDeviceRayTracingPipelinePropertiesKHR rtProps = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_RAY_TRACING_PIPELINE_PROPERTIES_KHR };
static VkPhysicalDeviceSubgroupSizeControlProperties sgcProps = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_PROPERTIES };
static VkPhysicalDeviceSubgroupProperties sgProps = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES };
static VkPhysicalDeviceDriverProperties drvProps = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_DRIVER_PROPERTIES };
static VkPhysicalDeviceProperties2 props = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2 };
static VkCommandPool cmdPool;
static int validationMessages, validationErrors;

static VKAPI_ATTR VkBool32 VKAPI_CALL onMessage(VkDebugUtilsMessageSeverityFlagBitsEXT sev, VkDebugUtilsMessageTypeFlagsEXT type,
                                                const VkDebugUtilsMessengerCallbackDataEXT *data, void *user) {
  (void)type; (void)user;
  if (sev >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT) {
    validationMessages++;
    if (sev >= VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT) validationErrors++;
    fprintf(stderr, "validation: %s\n", data->pMessage);
  }
  return VK_FALSE;
}

static uint32_t memoryType(uint32_t bits, VkMemoryPropertyFlags want, VkMemoryPropertyFlags prefer) {
  for (uint32_t i = 0; i < memProps.memoryTypeCount; i++)
    if ((bits & (1u << i)) && (memProps.memoryTypes[i].propertyFlags & (want | prefer)) == (want | prefer)) return i;
  for (uint32_t i = 0; i < memProps.memoryTypeCount; i++)
    if ((bits & (1u << i)) && (memProps.memoryTypes[i].propertyFlags & want) == want) return i;
  die(2, "no memory type with flags 0x%x", want);
  return 0;
}

/* A buffer with device address; host-visible ones are mapped. */
static void makeBuffer(uint64_t size, VkBufferUsageFlags usage, int hostVisible, VkBuffer *buf, VkDeviceMemory *mem, void **map) {
  VkBufferCreateInfo bi = { .sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, .size = size ? size : 16,
    .usage = usage | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT };
  VK(vkCreateBuffer(dev, &bi, NULL, buf));
  VkMemoryRequirements req;
  vkGetBufferMemoryRequirements(dev, *buf, &req);
  VkMemoryAllocateFlagsInfo flags = { .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO, .flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT };
  VkMemoryAllocateInfo ai = { .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, .pNext = &flags, .allocationSize = req.size,
    .memoryTypeIndex = hostVisible ? memoryType(req.memoryTypeBits, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT, 0)
                                   : memoryType(req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0) };
  VK(vkAllocateMemory(dev, &ai, NULL, mem));
  VK(vkBindBufferMemory(dev, *buf, *mem, 0));
  if (map) {
    *map = NULL;
    if (hostVisible) VK(vkMapMemory(dev, *mem, 0, VK_WHOLE_SIZE, 0, map));
  }
}

static VkDeviceAddress addressOf(VkBuffer b) {
  VkBufferDeviceAddressInfo i = { .sType = VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO, .buffer = b };
  return vkGetBufferDeviceAddress(dev, &i);
}

/* A host-visible buffer holding `size` bytes of `data` (zeros when NULL). */
static VkBuffer uploadBuffer(const void *data, uint64_t size, VkBufferUsageFlags usage, VkDeviceMemory *memOut, void **mapOut) {
  VkBuffer b; VkDeviceMemory m; void *p;
  makeBuffer(size, usage, 1, &b, &m, &p);
  if (data) memcpy(p, data, size); else memset(p, 0, size ? size : 16);
  if (memOut) *memOut = m;
  if (mapOut) *mapOut = p;
  return b;
}

static VkCommandBuffer beginCommands(void) {
  VkCommandBufferAllocateInfo ai = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, .commandPool = cmdPool, .level = VK_COMMAND_BUFFER_LEVEL_PRIMARY, .commandBufferCount = 1 };
  VkCommandBuffer cb;
  VK(vkAllocateCommandBuffers(dev, &ai, &cb));
  VkCommandBufferBeginInfo bi = { .sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO, .flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT };
  VK(vkBeginCommandBuffer(cb, &bi));
  return cb;
}

static void submitAndWait(VkCommandBuffer cb) {
  VK(vkEndCommandBuffer(cb));
  VkSubmitInfo si = { .sType = VK_STRUCTURE_TYPE_SUBMIT_INFO, .commandBufferCount = 1, .pCommandBuffers = &cb };
  VkFenceCreateInfo fi = { .sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO };
  VkFence fence;
  VK(vkCreateFence(dev, &fi, NULL, &fence));
  VK(vkQueueSubmit(queue, 1, &si, fence));
  VkResult r = vkWaitForFences(dev, 1, &fence, VK_TRUE, (uint64_t)timeoutS * 1000000000ull);
  if (r == VK_TIMEOUT)
    die(EXIT_TIMEOUT, "the device did not finish a submission within %u s (--timeout): a shader that never ends, or a hung GPU", timeoutS);
  if (r != VK_SUCCESS) die(2, "vkWaitForFences failed: VkResult %d (%s)", (int)r, r == VK_ERROR_DEVICE_LOST ? "device lost" : "error");
  vkDestroyFence(dev, fence, NULL);
}

static void barrier(VkCommandBuffer cb) {
  VkMemoryBarrier mb = { .sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER, .srcAccessMask = VK_ACCESS_MEMORY_WRITE_BIT, .dstAccessMask = VK_ACCESS_MEMORY_READ_BIT | VK_ACCESS_MEMORY_WRITE_BIT };
  vkCmdPipelineBarrier(cb, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, 0, 1, &mb, 0, NULL, 0, NULL);
}

/*
 * VK_KHR_ray_tracing_position_fetch (gl_HitTriangleVertexPositionsEXT), spelled out for headers
 * older than 1.3.250: enabled with its feature when the device has it, and every BLAS then allows
 * data access, as an application using it builds them.
 */
#ifndef VK_KHR_ray_tracing_position_fetch
#define VK_KHR_RAY_TRACING_POSITION_FETCH_EXTENSION_NAME "VK_KHR_ray_tracing_position_fetch"
#define VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_RAY_TRACING_POSITION_FETCH_FEATURES_KHR ((VkStructureType)1000481000)
#define VK_BUILD_ACCELERATION_STRUCTURE_ALLOW_DATA_ACCESS_KHR 0x00000800
typedef struct VkPhysicalDeviceRayTracingPositionFetchFeaturesKHR {
  VkStructureType sType;
  void *pNext;
  VkBool32 rayTracingPositionFetch;
} VkPhysicalDeviceRayTracingPositionFetchFeaturesKHR;
#endif
static int positionFetch;

static VkAccelerationStructureKHR buildAs(VkAccelerationStructureTypeKHR type, const VkAccelerationStructureGeometryKHR *g,
                                          const VkAccelerationStructureBuildRangeInfoKHR *ranges, uint32_t count) {
  VkAccelerationStructureBuildGeometryInfoKHR bi = { .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_BUILD_GEOMETRY_INFO_KHR, .type = type,
    .flags = VK_BUILD_ACCELERATION_STRUCTURE_PREFER_FAST_TRACE_BIT_KHR
      | (positionFetch && type == VK_ACCELERATION_STRUCTURE_TYPE_BOTTOM_LEVEL_KHR ? VK_BUILD_ACCELERATION_STRUCTURE_ALLOW_DATA_ACCESS_KHR : 0),
    .mode = VK_BUILD_ACCELERATION_STRUCTURE_MODE_BUILD_KHR,
    .geometryCount = count, .pGeometries = g };
  uint32_t *prims = malloc(sizeof(uint32_t) * (count ? count : 1));
  for (uint32_t i = 0; i < count; i++) prims[i] = ranges[i].primitiveCount;
  VkAccelerationStructureBuildSizesInfoKHR sizes = { .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_BUILD_SIZES_INFO_KHR };
  vkGetAccelerationStructureBuildSizesKHR(dev, VK_ACCELERATION_STRUCTURE_BUILD_TYPE_DEVICE_KHR, &bi, prims, &sizes);
  free(prims);
  VkBuffer storage, scratch; VkDeviceMemory sm, scm;
  makeBuffer(sizes.accelerationStructureSize, VK_BUFFER_USAGE_ACCELERATION_STRUCTURE_STORAGE_BIT_KHR, 0, &storage, &sm, NULL);
  makeBuffer(sizes.buildScratchSize + 256, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, 0, &scratch, &scm, NULL);
  VkAccelerationStructureCreateInfoKHR ci = { .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_CREATE_INFO_KHR, .buffer = storage,
    .size = sizes.accelerationStructureSize, .type = type };
  VkAccelerationStructureKHR as;
  VK(vkCreateAccelerationStructureKHR(dev, &ci, NULL, &as));
  bi.dstAccelerationStructure = as;
  VkDeviceAddress sa = addressOf(scratch);
  bi.scratchData.deviceAddress = (sa + 255) & ~(VkDeviceAddress)255;
  VkCommandBuffer cb = beginCommands();
  const VkAccelerationStructureBuildRangeInfoKHR *pr = ranges;
  vkCmdBuildAccelerationStructuresKHR(cb, 1, &bi, &pr);
  barrier(cb);
  submitAndWait(cb);
  return as;
}

static VkDeviceAddress asAddress(VkAccelerationStructureKHR as) {
  VkAccelerationStructureDeviceAddressInfoKHR i = { .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_DEVICE_ADDRESS_INFO_KHR, .accelerationStructure = as };
  return vkGetAccelerationStructureDeviceAddressKHR(dev, &i);
}

static int hasExtension(const VkExtensionProperties *e, uint32_t n, const char *name) {
  for (uint32_t i = 0; i < n; i++) if (!strcmp(e[i].extensionName, name)) return 1;
  return 0;
}

static int cmpDouble(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static void jsonString(FILE *f, const char *s) {
  fputc('"', f);
  for (; *s; s++) {
    if (*s == '"' || *s == '\\') fputc('\\', f);
    if ((unsigned char)*s >= 0x20) fputc(*s, f);
  }
  fputc('"', f);
}

/* The device address of the buffer or memory the simulated address `v` falls in (0 when none). */
static VkDeviceAddress deviceAddressOf(uint64_t v) {
  /* Inside a buffer first; one past a buffer's end only where no buffer starts there (buffers are packed back to back). */
  for (int pass = 0; pass < 2; pass++)
    for (int i = 0; i < nRes; i++) {
      Res *r = &res[i];
      if (!r->simAddr || !r->buf) continue;
      if (v >= r->simAddr && (v < r->simAddr + r->bytes || (pass == 1 && v == r->simAddr + r->bytes))) return addressOf(r->buf) + (v - r->simAddr);
    }
  return 0;
}

/* Writes the device addresses into `data`, the bytes [base, base + size) of FILE. */
static void applyRelocs(const char *file, uint8_t *data, uint64_t base, uint64_t size) {
  for (int i = 0; i < nRelocs; i++) {
    Reloc *rl = &relocs[i];
    if (strcmp(rl->file, file) || rl->offset < base || rl->offset + 8 > base + size) continue;
    VkDeviceAddress a = deviceAddressOf(rl->value);
    if (!a) die(2, "bundle: %s+%llu holds simulated address 0x%llx, which no buffer holds", file, (unsigned long long)rl->offset, (unsigned long long)rl->value);
    memcpy(data + (rl->offset - base), &a, 8);
  }
}

/* A 2D image of r's format, size and levels (at least 1) in device memory, with a view of every level: r->image, r->mem, r->view. */
static void makeImage(Res *r, VkImageUsageFlags usage) {
  uint32_t levels = r->levels > 1 ? (uint32_t)r->levels : 1;
  VkImageCreateInfo ici = { .sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO, .imageType = VK_IMAGE_TYPE_2D, .format = r->format,
    .extent = { (uint32_t)r->w, (uint32_t)r->h, 1 }, .mipLevels = levels, .arrayLayers = 1, .samples = VK_SAMPLE_COUNT_1_BIT,
    .tiling = VK_IMAGE_TILING_OPTIMAL, .usage = usage, .initialLayout = VK_IMAGE_LAYOUT_UNDEFINED };
  VK(vkCreateImage(dev, &ici, NULL, &r->image));
  VkMemoryRequirements req;
  vkGetImageMemoryRequirements(dev, r->image, &req);
  VkMemoryAllocateInfo ai = { .sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, .allocationSize = req.size,
    .memoryTypeIndex = memoryType(req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0) };
  VK(vkAllocateMemory(dev, &ai, NULL, &r->mem));
  VK(vkBindImageMemory(dev, r->image, r->mem, 0));
  VkImageViewCreateInfo vci = { .sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO, .image = r->image, .viewType = VK_IMAGE_VIEW_TYPE_2D, .format = r->format,
    .subresourceRange = { VK_IMAGE_ASPECT_COLOR_BIT, 0, levels, 0, 1 } };
  VK(vkCreateImageView(dev, &vci, NULL, &r->view));
}

static Res *resourceByFile(const char *file) {
  for (int i = 0; i < nRes; i++) if (res[i].buf && !strcmp(res[i].file, file)) return &res[i];
  die(2, "bundle: no buffer from %s", file);
  return NULL;
}

static VkSamplerAddressMode wrapMode(int w) {
  return w == 1 ? VK_SAMPLER_ADDRESS_MODE_MIRRORED_REPEAT : w == 2 ? VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE : VK_SAMPLER_ADDRESS_MODE_REPEAT;
}

int main(int argc, char **argv) {
  int deviceIndex = -1, repeat = 5, validate = 0, list = 0;
  const char *outDir = NULL;
  for (int i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--device") && i + 1 < argc) deviceIndex = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--repeat") && i + 1 < argc) repeat = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--timeout") && i + 1 < argc) timeoutS = (uint32_t)atoi(argv[++i]);
    else if (!strcmp(argv[i], "--validate")) validate = 1;
    else if (!strcmp(argv[i], "--list")) list = 1;
    else if (!bundleDir[0]) snprintf(bundleDir, sizeof bundleDir, "%s", argv[i]);
    else outDir = argv[i];
  }
  if (repeat < 1) repeat = 1;
  if (!list && (!bundleDir[0] || !outDir)) die(2, "usage: vvision-host [--device N] [--repeat N] [--timeout S] [--validate] [--list] BUNDLE_DIR OUT_DIR");
  if (!list) readBundle();

  void *lib = dlopen("libvulkan.so.1", RTLD_NOW);
  if (!lib) lib = dlopen("libvulkan.so", RTLD_NOW);
  if (!lib) die(EXIT_NO_DEVICE, "no Vulkan loader (libvulkan.so.1) on this machine: install one (Debian: libvulkan1 and a driver such as mesa-vulkan-drivers)");
  gipa = (PFN_vkGetInstanceProcAddr)dlsym(lib, "vkGetInstanceProcAddr");
  vkCreateInstance_ = (PFN_vkCreateInstance)gipa(NULL, "vkCreateInstance");
  vkEnumerateInstanceLayerProperties_ = (PFN_vkEnumerateInstanceLayerProperties)gipa(NULL, "vkEnumerateInstanceLayerProperties");

  const char *layers[1] = { "VK_LAYER_KHRONOS_validation" };
  const char *instExt[1] = { VK_EXT_DEBUG_UTILS_EXTENSION_NAME };
  int haveValidation = 0;
  if (validate) {
    uint32_t n = 0;
    vkEnumerateInstanceLayerProperties_(&n, NULL);
    VkLayerProperties *lp = calloc(n ? n : 1, sizeof *lp);
    vkEnumerateInstanceLayerProperties_(&n, lp);
    for (uint32_t i = 0; i < n; i++) if (!strcmp(lp[i].layerName, layers[0])) haveValidation = 1;
    if (!haveValidation) fprintf(stderr, "vvision-host: --validate: VK_LAYER_KHRONOS_validation is not installed; running without it\n");
  }
  VkApplicationInfo app = { .sType = VK_STRUCTURE_TYPE_APPLICATION_INFO, .pApplicationName = "vvision", .apiVersion = VK_API_VERSION_1_3 };
  VkInstanceCreateInfo ici = { .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, .pApplicationInfo = &app,
    .enabledLayerCount = haveValidation, .ppEnabledLayerNames = layers, .enabledExtensionCount = haveValidation, .ppEnabledExtensionNames = instExt };
  VkResult ir = vkCreateInstance_(&ici, NULL, &instance);
  if (ir != VK_SUCCESS) die(EXIT_NO_DEVICE, "vkCreateInstance failed (VkResult %d): no Vulkan implementation (ICD) found", (int)ir);
#define LOADI(name) name = (PFN_##name)gipa(instance, #name);
  INSTANCE_FNS(LOADI)
  if (haveValidation) {
    vkCreateDebugUtilsMessengerEXT_ = (PFN_vkCreateDebugUtilsMessengerEXT)gipa(instance, "vkCreateDebugUtilsMessengerEXT");
    VkDebugUtilsMessengerCreateInfoEXT mi = { .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
      .messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
      .messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT,
      .pfnUserCallback = onMessage };
    VkDebugUtilsMessengerEXT messenger;
    VK(vkCreateDebugUtilsMessengerEXT_(instance, &mi, NULL, &messenger));
  }

  /* Devices with ray tracing pipelines, in the loader's order; --device N picks among them. */
  uint32_t nPhys = 0;
  vkEnumeratePhysicalDevices(instance, &nPhys, NULL);
  VkPhysicalDevice *all = calloc(nPhys ? nPhys : 1, sizeof *all);
  vkEnumeratePhysicalDevices(instance, &nPhys, all);
  VkPhysicalDevice rt[64]; int nRt = 0;
  for (uint32_t i = 0; i < nPhys && nRt < 64; i++) {
    uint32_t ne = 0;
    vkEnumerateDeviceExtensionProperties(all[i], NULL, &ne, NULL);
    VkExtensionProperties *e = calloc(ne ? ne : 1, sizeof *e);
    vkEnumerateDeviceExtensionProperties(all[i], NULL, &ne, e);
    VkPhysicalDeviceProperties2 p = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2 };
    vkGetPhysicalDeviceProperties2(all[i], &p);
    int ok = hasExtension(e, ne, VK_KHR_RAY_TRACING_PIPELINE_EXTENSION_NAME) && hasExtension(e, ne, VK_KHR_ACCELERATION_STRUCTURE_EXTENSION_NAME)
      && VK_API_VERSION_MINOR(p.properties.apiVersion) >= 2;
    if (list) printf("%s%d: %s (Vulkan %u.%u)%s\n", ok ? "" : "-", ok ? nRt : -1, p.properties.deviceName,
      VK_API_VERSION_MAJOR(p.properties.apiVersion), VK_API_VERSION_MINOR(p.properties.apiVersion), ok ? "" : " no ray tracing pipeline");
    if (ok) rt[nRt++] = all[i];
    free(e);
  }
  if (list) return nRt > 0 ? 0 : EXIT_NO_DEVICE;
  if (nRt == 0) die(EXIT_NO_DEVICE, "no Vulkan device with VK_KHR_ray_tracing_pipeline among the %u the loader found", nPhys);
  if (deviceIndex >= nRt) die(EXIT_NO_DEVICE, "--device %d: only %d ray tracing device(s) (vvision device --list shows them)", deviceIndex, nRt);
  phys = rt[deviceIndex < 0 ? 0 : deviceIndex];
  drvProps.pNext = &rtProps; rtProps.pNext = &sgcProps; sgcProps.pNext = &sgProps; props.pNext = &drvProps;
  vkGetPhysicalDeviceProperties2(phys, &props);
  vkGetPhysicalDeviceMemoryProperties(phys, &memProps);

  /* Optional extensions, enabled where the device has them, with their features:
   * VK_KHR_ray_tracing_position_fetch (gl_HitTriangleVertexPositionsEXT; only for a pipeline that declares it), VK_KHR_ray_tracing_maintenance1
   * (gl_CullMaskEXT: SPV_KHR_ray_cull_mask), VK_KHR_shader_clock (clockARB / clockRealtimeEXT: SPV_KHR_shader_clock). */
  uint32_t nExt = 0;
  vkEnumerateDeviceExtensionProperties(phys, NULL, &nExt, NULL);
  VkExtensionProperties *exts = calloc(nExt ? nExt : 1, sizeof *exts);
  vkEnumerateDeviceExtensionProperties(phys, NULL, &nExt, exts);
  int haveMaint1 = hasExtension(exts, nExt, VK_KHR_RAY_TRACING_MAINTENANCE_1_EXTENSION_NAME);
  int haveClock = hasExtension(exts, nExt, VK_KHR_SHADER_CLOCK_EXTENSION_NAME);
  positionFetch = hasExtension(exts, nExt, VK_KHR_RAY_TRACING_POSITION_FETCH_EXTENSION_NAME) && stagesDeclareCapability(5336 /* RayTracingPositionFetchKHR */);
  free(exts);
  VkPhysicalDeviceShaderClockFeaturesKHR clf = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_CLOCK_FEATURES_KHR };
  VkPhysicalDeviceRayTracingMaintenance1FeaturesKHR m1f = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_RAY_TRACING_MAINTENANCE_1_FEATURES_KHR, .pNext = haveClock ? &clf : NULL };
  void *optional = haveMaint1 ? (void *)&m1f : haveClock ? (void *)&clf : NULL;
  VkPhysicalDeviceRayTracingPositionFetchFeaturesKHR pff = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_RAY_TRACING_POSITION_FETCH_FEATURES_KHR, .pNext = optional };
  /* Every feature the device has, except robustness (it costs time and no shader here needs it). */
  VkPhysicalDeviceRayTracingPipelineFeaturesKHR rtf = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_RAY_TRACING_PIPELINE_FEATURES_KHR, .pNext = positionFetch ? (void *)&pff : optional };
  VkPhysicalDeviceAccelerationStructureFeaturesKHR asf = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ACCELERATION_STRUCTURE_FEATURES_KHR, .pNext = &rtf };
  VkPhysicalDeviceVulkan13Features f13 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES, .pNext = &asf };
  VkPhysicalDeviceVulkan12Features f12 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES, .pNext = &f13 };
  VkPhysicalDeviceVulkan11Features f11 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES, .pNext = &f12 };
  VkPhysicalDeviceFeatures2 f2 = { .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2, .pNext = &f11 };
  int vk13 = VK_API_VERSION_MINOR(props.properties.apiVersion) >= 3;
  if (!vk13) f12.pNext = &asf;
  vkGetPhysicalDeviceFeatures2(phys, &f2);
  f2.features.robustBufferAccess = VK_FALSE;
  f13.robustImageAccess = VK_FALSE;
  asf.accelerationStructureCaptureReplay = VK_FALSE; asf.accelerationStructureHostCommands = VK_FALSE;
  rtf.rayTracingPipelineShaderGroupHandleCaptureReplay = VK_FALSE; rtf.rayTracingPipelineShaderGroupHandleCaptureReplayMixed = VK_FALSE;
  if (!rtf.rayTracingPipeline || !f12.bufferDeviceAddress) die(EXIT_NO_DEVICE, "%s: rayTracingPipeline / bufferDeviceAddress not supported", props.properties.deviceName);

  uint32_t nq = 0;
  vkGetPhysicalDeviceQueueFamilyProperties(phys, &nq, NULL);
  VkQueueFamilyProperties qp[32];
  if (nq > 32) nq = 32;
  vkGetPhysicalDeviceQueueFamilyProperties(phys, &nq, qp);
  queueFamily = UINT32_MAX;
  for (uint32_t i = 0; i < nq; i++) if ((qp[i].queueFlags & VK_QUEUE_COMPUTE_BIT) && qp[i].timestampValidBits > 0) { queueFamily = i; break; }
  if (queueFamily == UINT32_MAX) for (uint32_t i = 0; i < nq; i++) if (qp[i].queueFlags & VK_QUEUE_COMPUTE_BIT) { queueFamily = i; break; }
  if (queueFamily == UINT32_MAX) die(2, "no compute queue");
  float prio = 1;
  VkDeviceQueueCreateInfo qci = { .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO, .queueFamilyIndex = queueFamily, .queueCount = 1, .pQueuePriorities = &prio };
  const char *devExt[6] = { VK_KHR_RAY_TRACING_PIPELINE_EXTENSION_NAME, VK_KHR_ACCELERATION_STRUCTURE_EXTENSION_NAME, VK_KHR_DEFERRED_HOST_OPERATIONS_EXTENSION_NAME };
  uint32_t nDevExt = 3;
  positionFetch = positionFetch && pff.rayTracingPositionFetch;
  if (!positionFetch) rtf.pNext = optional;
  if (positionFetch) devExt[nDevExt++] = VK_KHR_RAY_TRACING_POSITION_FETCH_EXTENSION_NAME;
  if (haveMaint1) devExt[nDevExt++] = VK_KHR_RAY_TRACING_MAINTENANCE_1_EXTENSION_NAME;
  if (haveClock) devExt[nDevExt++] = VK_KHR_SHADER_CLOCK_EXTENSION_NAME;
  VkDeviceCreateInfo dci = { .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, .pNext = &f2, .queueCreateInfoCount = 1, .pQueueCreateInfos = &qci,
    .enabledExtensionCount = nDevExt, .ppEnabledExtensionNames = devExt };
  VK(vkCreateDevice(phys, &dci, NULL, &dev));
#define LOADD(name) name = (PFN_##name)vkGetDeviceProcAddr(dev, #name); if (!name) die(2, "missing device function " #name);
  DEVICE_FNS(LOADD)
  vkGetDeviceQueue(dev, queueFamily, 0, &queue);
  VkCommandPoolCreateInfo cpi = { .sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, .queueFamilyIndex = queueFamily, .flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT };
  VK(vkCreateCommandPool(dev, &cpi, NULL, &cmdPool));

  /* Acceleration structures: one BLAS per `blas`, then the TLAS of the instances. */
  VkAccelerationStructureKHR *blasAs = calloc(nBlas ? nBlas : 1, sizeof *blasAs);
  VkBufferUsageFlags buildInput = VK_BUFFER_USAGE_ACCELERATION_STRUCTURE_BUILD_INPUT_READ_ONLY_BIT_KHR;
  for (int b = 0; b < nBlas; b++) {
    int n = blases[b].count;
    VkAccelerationStructureGeometryKHR *g = calloc(n ? n : 1, sizeof *g);
    VkAccelerationStructureBuildRangeInfoKHR *r = calloc(n ? n : 1, sizeof *r);
    for (int k = 0; k < n; k++) {
      Geom *ge = &geoms[blases[b].first + k];
      uint64_t vs, is;
      void *v = readFile(ge->vfile, &vs);
      VkBuffer vb = uploadBuffer(v, vs, buildInput, NULL, NULL);
      free(v);
      g[k].sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_GEOMETRY_KHR;
      g[k].flags = ge->flags;
      if (ge->aabbs) {
        g[k].geometryType = VK_GEOMETRY_TYPE_AABBS_KHR;
        g[k].geometry.aabbs = (VkAccelerationStructureGeometryAabbsDataKHR){ .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_GEOMETRY_AABBS_DATA_KHR,
          .data.deviceAddress = addressOf(vb), .stride = 24 };
        r[k].primitiveCount = ge->vcount;
      } else {
        void *ix = readFile(ge->ifile, &is);
        VkBuffer ib = uploadBuffer(ix, is, buildInput, NULL, NULL);
        free(ix);
        g[k].geometryType = VK_GEOMETRY_TYPE_TRIANGLES_KHR;
        g[k].geometry.triangles = (VkAccelerationStructureGeometryTrianglesDataKHR){ .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_GEOMETRY_TRIANGLES_DATA_KHR,
          .vertexFormat = VK_FORMAT_R32G32B32_SFLOAT, .vertexData.deviceAddress = addressOf(vb), .vertexStride = 12,
          .maxVertex = ge->vcount ? ge->vcount - 1 : 0, .indexType = VK_INDEX_TYPE_UINT32, .indexData.deviceAddress = addressOf(ib) };
        r[k].primitiveCount = ge->icount / 3;
      }
    }
    blasAs[b] = buildAs(VK_ACCELERATION_STRUCTURE_TYPE_BOTTOM_LEVEL_KHR, g, r, (uint32_t)n);
    free(g); free(r);
  }
  VkAccelerationStructureInstanceKHR *vi = calloc(nInsts ? nInsts : 1, sizeof *vi);
  for (int i = 0; i < nInsts; i++) {
    memcpy(vi[i].transform.matrix, insts[i].t, sizeof(float) * 12);
    vi[i].instanceCustomIndex = insts[i].custom & 0xffffff;
    vi[i].mask = insts[i].mask & 0xff;
    vi[i].instanceShaderBindingTableRecordOffset = insts[i].sbtOffset & 0xffffff;
    vi[i].flags = insts[i].flags & 0xff;
    if (insts[i].blas < 0 || insts[i].blas >= nBlas) die(2, "bundle: instance %d names blas %d", i, insts[i].blas);
    vi[i].accelerationStructureReference = asAddress(blasAs[insts[i].blas]);
  }
  VkBuffer instBuf = uploadBuffer(vi, sizeof *vi * (uint64_t)(nInsts ? nInsts : 1), buildInput, NULL, NULL);
  VkAccelerationStructureGeometryKHR tg = { .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_GEOMETRY_KHR, .geometryType = VK_GEOMETRY_TYPE_INSTANCES_KHR,
    .geometry.instances = { .sType = VK_STRUCTURE_TYPE_ACCELERATION_STRUCTURE_GEOMETRY_INSTANCES_DATA_KHR, .data.deviceAddress = addressOf(instBuf) } };
  VkAccelerationStructureBuildRangeInfoKHR tr = { .primitiveCount = (uint32_t)nInsts };
  VkAccelerationStructureKHR tlas = buildAs(VK_ACCELERATION_STRUCTURE_TYPE_TOP_LEVEL_KHR, &tg, &tr, 1);

  /* Descriptors: one layout per set 0..max (empty sets included), every binding visible to every stage. */
  VkShaderStageFlags allStages = VK_SHADER_STAGE_RAYGEN_BIT_KHR | VK_SHADER_STAGE_MISS_BIT_KHR | VK_SHADER_STAGE_CLOSEST_HIT_BIT_KHR |
    VK_SHADER_STAGE_ANY_HIT_BIT_KHR | VK_SHADER_STAGE_INTERSECTION_BIT_KHR | VK_SHADER_STAGE_CALLABLE_BIT_KHR;
  int maxSet = -1;
  for (int i = 0; i < nRes; i++) if (res[i].set > maxSet) maxSet = res[i].set;
  int nSets = maxSet + 1;
  VkDescriptorSetLayout setLayouts[16];
  if (nSets > 16) die(2, "bundle: descriptor set %d: at most 16 sets", maxSet);
  uint32_t counts[5] = { 0 }; /* storage buffer, uniform buffer, storage image, AS, combined image sampler */
  for (int s = 0; s < nSets; s++) {
    VkDescriptorSetLayoutBinding lb[MAXN]; uint32_t n = 0;
    for (int i = 0; i < nRes; i++) if (res[i].set == s && !res[i].memoryOnly) {
      uint32_t k = 0;
      while (k < n && lb[k].binding != (uint32_t)res[i].binding) k++;
      if (k < n) continue; /* another element of a texture array */
      lb[n++] = (VkDescriptorSetLayoutBinding){ .binding = (uint32_t)res[i].binding, .descriptorType = res[i].type,
        .descriptorCount = res[i].type == VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER ? (uint32_t)res[i].count : 1, .stageFlags = allStages };
    }
    VkDescriptorSetLayoutCreateInfo li = { .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, .bindingCount = n, .pBindings = lb };
    VK(vkCreateDescriptorSetLayout(dev, &li, NULL, &setLayouts[s]));
  }
  for (int i = 0; i < nRes; i++) {
    if (res[i].memoryOnly) continue;
    switch (res[i].type) {
      case VK_DESCRIPTOR_TYPE_STORAGE_BUFFER: counts[0]++; break;
      case VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER: counts[1]++; break;
      case VK_DESCRIPTOR_TYPE_STORAGE_IMAGE: counts[2]++; break;
      case VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER: counts[4]++; break;
      default: counts[3]++;
    }
  }
  VkPushConstantRange pcr = { .stageFlags = allStages, .offset = 0, .size = (uint32_t)pushBytes };
  VkPipelineLayoutCreateInfo pli = { .sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, .setLayoutCount = (uint32_t)nSets, .pSetLayouts = setLayouts,
    .pushConstantRangeCount = pushBytes > 0, .pPushConstantRanges = &pcr };
  VkPipelineLayout pipeLayout;
  VK(vkCreatePipelineLayout(dev, &pli, NULL, &pipeLayout));
  VkDescriptorPoolSize ps[5]; uint32_t nps = 0;
  VkDescriptorType pt[5] = { VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, VK_DESCRIPTOR_TYPE_ACCELERATION_STRUCTURE_KHR,
    VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER };
  for (int k = 0; k < 5; k++) if (counts[k]) ps[nps++] = (VkDescriptorPoolSize){ pt[k], counts[k] };
  VkDescriptorPoolCreateInfo dpi = { .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, .maxSets = (uint32_t)(nSets ? nSets : 1), .poolSizeCount = nps, .pPoolSizes = ps };
  VkDescriptorPool pool;
  VkDescriptorSet sets[16];
  if (nSets > 0) {
    VK(vkCreateDescriptorPool(dev, &dpi, NULL, &pool));
    VkDescriptorSetAllocateInfo dai = { .sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, .descriptorPool = pool, .descriptorSetCount = (uint32_t)nSets, .pSetLayouts = setLayouts };
    VK(vkAllocateDescriptorSets(dev, &dai, sets));
  }

  /* Resources and their descriptors. Images start cleared to zero, as the simulator's do. */
  VkCommandBuffer setup = beginCommands();
  for (int i = 0; i < nRes; i++) {
    Res *r = &res[i];
    VkWriteDescriptorSet wr = { .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, .dstSet = r->memoryOnly ? VK_NULL_HANDLE : sets[r->set], .dstBinding = (uint32_t)r->binding,
      .dstArrayElement = (uint32_t)r->index, .descriptorCount = 1, .descriptorType = r->type };
    VkDescriptorBufferInfo dbi;
    VkDescriptorImageInfo dii;
    VkWriteDescriptorSetAccelerationStructureKHR was = { .sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET_ACCELERATION_STRUCTURE_KHR, .accelerationStructureCount = 1, .pAccelerationStructures = &tlas };
    if (r->type == VK_DESCRIPTOR_TYPE_ACCELERATION_STRUCTURE_KHR) {
      wr.pNext = &was;
    } else if (r->type == VK_DESCRIPTOR_TYPE_STORAGE_IMAGE) {
      makeImage(r, VK_IMAGE_USAGE_STORAGE_BIT | VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT);
      VkImageMemoryBarrier ib = { .sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER, .dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
        .oldLayout = VK_IMAGE_LAYOUT_UNDEFINED, .newLayout = VK_IMAGE_LAYOUT_GENERAL, .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
        .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED, .image = r->image, .subresourceRange = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1 } };
      vkCmdPipelineBarrier(setup, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, NULL, 0, NULL, 1, &ib);
      VkClearColorValue zero = { 0 };
      vkCmdClearColorImage(setup, r->image, VK_IMAGE_LAYOUT_GENERAL, &zero, 1, &ib.subresourceRange);
      dii = (VkDescriptorImageInfo){ .imageView = r->view, .imageLayout = VK_IMAGE_LAYOUT_GENERAL };
      wr.pImageInfo = &dii;
    } else if (r->type == VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER) {
      /* A sampled texture: every level, uploaded through a staging buffer, read in GENERAL layout. */
      makeImage(r, VK_IMAGE_USAGE_SAMPLED_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT);
      uint64_t size;
      void *texels = readFile(r->file, &size);
      VkBufferImageCopy copies[16];
      uint64_t at = 0;
      for (int l = 0; l < r->levels; l++) {
        uint32_t lw = (uint32_t)r->w >> l, lh = (uint32_t)r->h >> l;
        if (!lw) lw = 1;
        if (!lh) lh = 1;
        copies[l] = (VkBufferImageCopy){ .bufferOffset = at, .imageSubresource = { VK_IMAGE_ASPECT_COLOR_BIT, (uint32_t)l, 0, 1 }, .imageExtent = { lw, lh, 1 } };
        at += (uint64_t)lw * lh * r->texel;
      }
      if (size < at) die(2, "bundle: %s: %llu bytes, short of %dx%d texels in %d levels", r->file, (unsigned long long)size, r->w, r->h, r->levels);
      VkBuffer staging = uploadBuffer(texels, size, VK_BUFFER_USAGE_TRANSFER_SRC_BIT, NULL, NULL);
      free(texels);
      VkImageMemoryBarrier ib = { .sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER, .dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT,
        .oldLayout = VK_IMAGE_LAYOUT_UNDEFINED, .newLayout = VK_IMAGE_LAYOUT_GENERAL, .srcQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED,
        .dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED, .image = r->image, .subresourceRange = { VK_IMAGE_ASPECT_COLOR_BIT, 0, (uint32_t)r->levels, 0, 1 } };
      vkCmdPipelineBarrier(setup, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0, NULL, 0, NULL, 1, &ib);
      vkCmdCopyBufferToImage(setup, staging, r->image, VK_IMAGE_LAYOUT_GENERAL, (uint32_t)r->levels, copies);
      VkSamplerCreateInfo sci = { .sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO, .magFilter = r->filter ? VK_FILTER_LINEAR : VK_FILTER_NEAREST,
        .minFilter = r->filter ? VK_FILTER_LINEAR : VK_FILTER_NEAREST, .mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST,
        .addressModeU = wrapMode(r->wrap), .addressModeV = wrapMode(r->wrap), .addressModeW = wrapMode(r->wrap), .minLod = 0, .maxLod = VK_LOD_CLAMP_NONE };
      VK(vkCreateSampler(dev, &sci, NULL, &r->sampler));
      dii = (VkDescriptorImageInfo){ .sampler = r->sampler, .imageView = r->view, .imageLayout = VK_IMAGE_LAYOUT_GENERAL };
      wr.pImageInfo = &dii;
    } else {
      VkBufferUsageFlags usage = r->type == VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER ? VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT : VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
      uint64_t size = r->bytes;
      void *data = NULL;
      if (strcmp(r->file, "-")) data = readFile(r->file, &size);
      if (size < r->bytes) size = r->bytes;
      r->buf = uploadBuffer(NULL, size, usage, &r->mem, &r->map);
      if (data) { memcpy(r->map, data, r->bytes < size ? r->bytes : size); free(data); }
      r->bytes = size;
      dbi = (VkDescriptorBufferInfo){ .buffer = r->buf, .offset = 0, .range = VK_WHOLE_SIZE };
      wr.pBufferInfo = &dbi;
    }
    if (!r->memoryOnly) vkUpdateDescriptorSets(dev, 1, &wr, 0, NULL);
  }
  /* Every buffer has its device address now: write them where the simulator's addresses were. */
  for (int i = 0; i < nRes; i++) if (res[i].buf && strcmp(res[i].file, "-")) applyRelocs(res[i].file, res[i].map, 0, res[i].bytes);
  barrier(setup);
  submitAndWait(setup);

  /* The pipeline: stages (with the required subgroup size where the device can give it), groups. */
  VkShaderModule *modules = calloc(nStages, sizeof *modules);
  VkPipelineShaderStageCreateInfo *psi = calloc(nStages, sizeof *psi);
  VkSpecializationMapEntry me[MAXN];
  for (int i = 0; i < nSpec; i++) me[i] = (VkSpecializationMapEntry){ specIds[i], (uint32_t)(4 * i), 4 };
  VkSpecializationInfo spec = { .mapEntryCount = (uint32_t)nSpec, .pMapEntries = me, .dataSize = (size_t)(4 * nSpec), .pData = specVals };
  uint32_t deviceSubgroup = sgProps.subgroupSize, ranSubgroup = deviceSubgroup;
  VkPipelineShaderStageRequiredSubgroupSizeCreateInfo rss = { .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO, .requiredSubgroupSize = subgroupWanted };
  int requireSize = subgroupWanted && subgroupWanted != deviceSubgroup && vk13 && f13.subgroupSizeControl &&
    subgroupWanted >= sgcProps.minSubgroupSize && subgroupWanted <= sgcProps.maxSubgroupSize &&
    (sgcProps.requiredSubgroupSizeStages & VK_SHADER_STAGE_RAYGEN_BIT_KHR);
  if (requireSize) ranSubgroup = subgroupWanted;
  for (int i = 0; i < nStages; i++) {
    uint64_t size;
    void *code = readFile(stages[i].file, &size);
    VkShaderModuleCreateInfo smi = { .sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, .codeSize = (size_t)size, .pCode = code };
    VK(vkCreateShaderModule(dev, &smi, NULL, &modules[i]));
    free(code);
    psi[i] = (VkPipelineShaderStageCreateInfo){ .sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO, .stage = (VkShaderStageFlagBits)stages[i].kind,
      .module = modules[i], .pName = stages[i].entry, .pSpecializationInfo = nSpec ? &spec : NULL,
      .pNext = requireSize && (sgcProps.requiredSubgroupSizeStages & (VkShaderStageFlags)stages[i].kind) ? &rss : NULL };
  }
  VkRayTracingShaderGroupCreateInfoKHR *gci = calloc(nGroups, sizeof *gci);
  uint32_t maxRecord = 0;
  for (int i = 0; i < nGroups; i++) {
    Group *g = &groups[i];
    gci[i] = (VkRayTracingShaderGroupCreateInfoKHR){ .sType = VK_STRUCTURE_TYPE_RAY_TRACING_SHADER_GROUP_CREATE_INFO_KHR, .type = g->type,
      .generalShader = g->general < 0 ? VK_SHADER_UNUSED_KHR : (uint32_t)g->general, .closestHitShader = g->chit < 0 ? VK_SHADER_UNUSED_KHR : (uint32_t)g->chit,
      .anyHitShader = g->ahit < 0 ? VK_SHADER_UNUSED_KHR : (uint32_t)g->ahit, .intersectionShader = g->isect < 0 ? VK_SHADER_UNUSED_KHR : (uint32_t)g->isect };
    if ((uint32_t)g->recBytes > maxRecord) maxRecord = (uint32_t)g->recBytes;
  }
  uint32_t depth = recursion < rtProps.maxRayRecursionDepth ? recursion : rtProps.maxRayRecursionDepth;
  VkRayTracingPipelineCreateInfoKHR rpi = { .sType = VK_STRUCTURE_TYPE_RAY_TRACING_PIPELINE_CREATE_INFO_KHR, .stageCount = (uint32_t)nStages, .pStages = psi,
    .groupCount = (uint32_t)nGroups, .pGroups = gci, .maxPipelineRayRecursionDepth = depth, .layout = pipeLayout };
  VkPipeline pipeline;
  VK(vkCreateRayTracingPipelinesKHR(dev, VK_NULL_HANDLE, VK_NULL_HANDLE, 1, &rpi, NULL, &pipeline));

  /* Shader binding table: raygen, miss, hit, callable regions; each record = handle + shaderRecordEXT data. */
  uint32_t hs = rtProps.shaderGroupHandleSize, ha = rtProps.shaderGroupHandleAlignment, ba = rtProps.shaderGroupBaseAlignment;
#define ALIGN(x, a) (((x) + (a) - 1) / (a) * (a))
  uint32_t stride = ALIGN(hs + maxRecord, ha);
  uint8_t *handles = malloc((size_t)hs * nGroups);
  VK(vkGetRayTracingShaderGroupHandlesKHR(dev, pipeline, 0, (uint32_t)nGroups, (size_t)hs * nGroups, handles));
  int regionCount[4] = { nRaygen, nMiss, nHit, nCall };
  uint64_t regionStart[4], total = 0;
  for (int k = 0; k < 4; k++) {
    regionStart[k] = total;
    uint64_t sz = (uint64_t)(k == 0 ? ALIGN(stride, ba) : stride) * regionCount[k];
    total = ALIGN(total + sz, ba);
  }
  VkBuffer sbt; void *sbtMap;
  makeBuffer(total + ba, VK_BUFFER_USAGE_SHADER_BINDING_TABLE_BIT_KHR, 1, &sbt, &(VkDeviceMemory){ 0 }, &sbtMap);
  VkDeviceAddress sbtAddr = addressOf(sbt), sbtBase = ALIGN(sbtAddr, ba);
  uint8_t *base = (uint8_t *)sbtMap + (sbtBase - sbtAddr);
  memset(sbtMap, 0, total + ba);
  int gi = 0;
  for (int k = 0; k < 4; k++) for (int j = 0; j < regionCount[k]; j++, gi++) {
    uint8_t *at = base + regionStart[k] + (uint64_t)j * stride;
    memcpy(at, handles + (size_t)hs * gi, hs);
    if (groups[gi].recBytes > 0) {
      uint64_t sz;
      void *rec = readFile(groups[gi].rec, &sz);
      applyRelocs(groups[gi].rec, rec, 0, sz);
      memcpy(at + hs, rec, sz < (uint64_t)groups[gi].recBytes ? sz : (uint64_t)groups[gi].recBytes);
      free(rec);
    }
  }
  VkStridedDeviceAddressRegionKHR region[4];
  for (int k = 0; k < 4; k++) {
    region[k].deviceAddress = regionCount[k] ? sbtBase + regionStart[k] : 0;
    region[k].stride = k == 0 ? ALIGN(stride, ba) : stride;
    region[k].size = regionCount[k] ? region[k].stride * regionCount[k] : 0;
    if (!regionCount[k]) region[k].stride = 0;
  }

  /* Push constants. */
  void *push = NULL;
  if (pushBytes > 0) { uint64_t sz; push = readFile(pushFile, &sz); if (sz < (uint64_t)pushBytes) die(2, "bundle: push constant file is short"); applyRelocs(pushFile, push, 0, sz); }

  /*
   * Repetitions: timestamps around the trace dispatch; repetition 0's outputs are kept. A sequence
   * of frames runs each launch once instead (`repeat` is then the frame count): before launch f the
   * frame's host work (buffer writes, image clears, push constants), after it the outputs, saved
   * per frame, and the instrumentation buffer emptied.
   */
  VkQueryPoolCreateInfo qpi = { .sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO, .queryType = VK_QUERY_TYPE_TIMESTAMP, .queryCount = 2 };
  VkQueryPool qpool;
  VK(vkCreateQueryPool(dev, &qpi, NULL, &qpool));
  int timestamps = qp[queueFamily].timestampValidBits > 0 && props.properties.limits.timestampPeriod > 0;
  if (nFrames > 1) repeat = nFrames;
  double *ms = calloc((size_t)repeat, sizeof *ms);
  /* Readback buffers for images. */
  VkBuffer *imgRead = calloc(nRes, sizeof *imgRead);
  void **imgMap = calloc(nRes, sizeof *imgMap);
  for (int i = 0; i < nRes; i++) if (res[i].type == VK_DESCRIPTOR_TYPE_STORAGE_IMAGE && strcmp(res[i].out, "-")) {
    VkDeviceMemory m;
    makeBuffer((uint64_t)res[i].w * res[i].h * res[i].texel, VK_BUFFER_USAGE_TRANSFER_DST_BIT, 1, &imgRead[i], &m, &imgMap[i]);
  }
  for (int rep = 0; rep < repeat; rep++) {
    int frame = nFrames > 1 ? rep : 0;
    int keep = rep == 0 || nFrames > 1;
    VkCommandBuffer cb = beginCommands();
    if (frame > 0) {
      for (int k = 0; k < nFrameOps; k++) {
        FrameOp *op = &frameOps[k];
        if (op->frame != frame) continue;
        if (op->kind == 0) {
          Res *r = resourceByFile(op->file);
          if (op->offset + op->bytes > r->bytes) die(2, "bundle: frame %d writes past %s", frame, op->file);
          uint64_t sz;
          uint8_t *patch = readFile(op->patch, &sz);
          applyRelocs(op->file, patch, op->offset, op->bytes);
          memcpy((uint8_t *)r->map + op->offset, patch, (size_t)op->bytes);
          free(patch);
        } else if (op->kind == 1) {
          for (int i = 0; i < nRes; i++) if (res[i].type == VK_DESCRIPTOR_TYPE_STORAGE_IMAGE && res[i].set == op->set && res[i].binding == op->binding) {
            VkClearColorValue zero = { 0 };
            VkImageSubresourceRange range = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 1, 0, 1 };
            vkCmdClearColorImage(cb, res[i].image, VK_IMAGE_LAYOUT_GENERAL, &zero, 1, &range);
          }
        } else {
          uint64_t sz;
          free(push);
          push = readFile(op->patch, &sz);
          if (sz < (uint64_t)pushBytes) die(2, "bundle: frame %d: push constant file is short", frame);
          applyRelocs(op->patch, push, 0, sz);
        }
      }
    }
    if (rep > 0) for (int i = 0; i < nRes; i++) if (res[i].buf && res[i].zero) vkCmdFillBuffer(cb, res[i].buf, 0, VK_WHOLE_SIZE, 0);
    barrier(cb);
    vkCmdResetQueryPool(cb, qpool, 0, 2);
    vkCmdBindPipeline(cb, VK_PIPELINE_BIND_POINT_RAY_TRACING_KHR, pipeline);
    if (nSets > 0) vkCmdBindDescriptorSets(cb, VK_PIPELINE_BIND_POINT_RAY_TRACING_KHR, pipeLayout, 0, (uint32_t)nSets, sets, 0, NULL);
    if (push) vkCmdPushConstants(cb, pipeLayout, allStages, 0, (uint32_t)pushBytes, push);
    vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, qpool, 0);
    vkCmdTraceRaysKHR(cb, &region[0], &region[1], &region[2], &region[3], launchW, launchH, launchD);
    vkCmdWriteTimestamp(cb, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, qpool, 1);
    barrier(cb);
    if (keep) {
      for (int i = 0; i < nRes; i++) if (imgRead[i]) {
        VkBufferImageCopy c = { .imageSubresource = { VK_IMAGE_ASPECT_COLOR_BIT, 0, 0, 1 }, .imageExtent = { (uint32_t)res[i].w, (uint32_t)res[i].h, 1 } };
        vkCmdCopyImageToBuffer(cb, res[i].image, VK_IMAGE_LAYOUT_GENERAL, imgRead[i], 1, &c);
      }
      barrier(cb);
    }
    submitAndWait(cb);
    if (timestamps) {
      uint64_t t[2];
      VK(vkGetQueryPoolResults(dev, qpool, 0, 2, sizeof t, t, sizeof(uint64_t), VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
      uint64_t mask = qp[queueFamily].timestampValidBits >= 64 ? ~0ull : ((1ull << qp[queueFamily].timestampValidBits) - 1);
      ms[rep] = (double)((t[1] - t[0]) & mask) * props.properties.limits.timestampPeriod / 1e6;
    }
    if (keep) {
      for (int i = 0; i < nRes; i++) {
        if (!strcmp(res[i].out, "-") || res[i].type == VK_DESCRIPTOR_TYPE_ACCELERATION_STRUCTURE_KHR) continue;
        for (int perFrame = 0; perFrame < (nFrames > 1 ? 2 : 1); perFrame++) {
          char name[256];
          if (perFrame) snprintf(name, sizeof name, "%s.f%03d.bin", res[i].out, frame);
          else snprintf(name, sizeof name, "%s.bin", res[i].out);
          FILE *f = fopen(pathIn(outDir, name), "wb");
          if (!f) die(2, "cannot write %s", pathIn(outDir, name));
          if (imgRead[i]) fwrite(imgMap[i], 1, (size_t)res[i].w * res[i].h * res[i].texel, f);
          else {
            /* The instrumentation buffer: its header and the entry words written (all of it when it overflowed). */
            uint64_t n = res[i].bytes;
            if (res[i].zero && n >= 8) { uint64_t want = 4 * (2 + (uint64_t)((uint32_t *)res[i].map)[1]); if (want < n) n = want; }
            fwrite(res[i].map, 1, (size_t)n, f);
          }
          fclose(f);
        }
      }
    }
    VK(vkResetCommandBuffer(cb, 0));
  }
  VK(vkDeviceWaitIdle(dev));

  double *sorted = malloc(sizeof(double) * (size_t)repeat);
  memcpy(sorted, ms, sizeof(double) * (size_t)repeat);
  qsort(sorted, (size_t)repeat, sizeof(double), cmpDouble);
  double median = repeat % 2 ? sorted[repeat / 2] : (sorted[repeat / 2 - 1] + sorted[repeat / 2]) / 2;
  FILE *f = fopen(pathIn(outDir, "device.json"), "w");
  if (!f) die(2, "cannot write %s", pathIn(outDir, "device.json"));
  fprintf(f, "{\n  \"device\": ");
  jsonString(f, props.properties.deviceName);
  fprintf(f, ",\n  \"driver\": ");
  jsonString(f, drvProps.driverName);
  fprintf(f, ",\n  \"driverInfo\": ");
  jsonString(f, drvProps.driverInfo);
  fprintf(f, ",\n  \"vendorId\": %u,\n  \"deviceId\": %u,\n  \"apiVersion\": \"%u.%u.%u\",\n", props.properties.vendorID, props.properties.deviceID,
    VK_API_VERSION_MAJOR(props.properties.apiVersion), VK_API_VERSION_MINOR(props.properties.apiVersion), VK_API_VERSION_PATCH(props.properties.apiVersion));
  fprintf(f, "  \"deviceType\": %d,\n  \"subgroupSize\": %u,\n  \"ranSubgroupSize\": %u,\n  \"requestedSubgroupSize\": %u,\n", (int)props.properties.deviceType,
    deviceSubgroup, ranSubgroup, subgroupWanted);
  fprintf(f, "  \"maxRayRecursionDepth\": %u,\n  \"shaderGroupHandleSize\": %u,\n", rtProps.maxRayRecursionDepth, hs);
  /* Stages whose subgroup operations Vulkan guarantees: the instrumentation's ballots run in every ray tracing stage. */
  const VkShaderStageFlags rtStages = VK_SHADER_STAGE_RAYGEN_BIT_KHR | VK_SHADER_STAGE_ANY_HIT_BIT_KHR | VK_SHADER_STAGE_CLOSEST_HIT_BIT_KHR |
    VK_SHADER_STAGE_MISS_BIT_KHR | VK_SHADER_STAGE_INTERSECTION_BIT_KHR | VK_SHADER_STAGE_CALLABLE_BIT_KHR;
  fprintf(f, "  \"subgroupSupportedStages\": %u,\n  \"subgroupSupportedOperations\": %u,\n  \"subgroupInRayTracingStages\": %s,\n",
    (unsigned)sgProps.supportedStages, (unsigned)sgProps.supportedOperations, (sgProps.supportedStages & rtStages) == rtStages ? "true" : "false");
  fprintf(f, "  \"frames\": %d,\n  \"timestamps\": %s,\n  \"traceMs\": [", nFrames, timestamps ? "true" : "false");
  for (int i = 0; i < repeat; i++) fprintf(f, "%s%.6f", i ? ", " : "", ms[i]);
  fprintf(f, "],\n  \"medianTraceMs\": %.6f,\n  \"validation\": %s,\n  \"validationMessages\": %d,\n  \"validationErrors\": %d\n}\n", median, haveValidation ? "true" : "false", validationMessages, validationErrors);
  fclose(f);
  printf("%s: %ux%ux%u, subgroup %u, median trace %.3f ms over %d\n", props.properties.deviceName, launchW, launchH, launchD, ranSubgroup, median, repeat);
  return 0;
}
