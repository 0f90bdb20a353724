// Types for the page's pure helpers in render.js, so tests can import them under strict TypeScript.
export function fileSize(n: number): { bytes: number; unit: string };
