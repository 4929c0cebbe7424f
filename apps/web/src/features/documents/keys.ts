export const documentKeys = {
  all: ['documents'] as const,
};
