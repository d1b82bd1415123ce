/**
 * The workload `vvision instrument` runs without an argument: ambient occlusion at 64x64, seconds
 * to simulate. Its own file so that the CLI's option help names it without loading the manifest
 * loader (issue 25).
 */
export const DEFAULT_WORKLOAD = 'ao';
