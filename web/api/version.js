// The package's version (package.json "version"; a test holds them equal).
export const version = '0.1.0';
