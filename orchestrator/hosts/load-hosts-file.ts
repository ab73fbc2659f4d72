// Reading a hosts file: its JSON parsed and validated, and every local file it names (sshConfig, Redis's PEM
// files) resolved against its folder and checked readable now, before the run folder exists.
import { constants } from 'node:fs';
import { access, readFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { HostsFileInvalidError } from './errors.ts';
import { type HostsFile, parseHostsFile } from './hosts-file.ts';

/** Reads, parses and validates a hosts file; a relative sshConfig is resolved against the file's folder. */
export async function loadHostsFile(path: string): Promise<HostsFile> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new HostsFileInvalidError(
      `hosts file ${path} cannot be read (${(err as Error).message}); pass --hosts with the path of an existing JSON file, or omit --hosts to run everything on this machine`,
      { cause: err },
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new HostsFileInvalidError(
      `hosts file ${path} is not valid JSON (${(err as Error).message}); fix the syntax`,
      { cause: err },
    );
  }
  const file = parseHostsFile(json, `hosts file ${path}`);
  // ssh (or TLS) would fail later in its own words, after the run folder exists: say it now.
  const readable = async (field: string, p: string, what: string): Promise<string> => {
    const abs = resolve(dirname(path), p);
    try {
      await access(abs, constants.R_OK);
    } catch (err) {
      throw new HostsFileInvalidError(
        `hosts file ${path} is invalid:\n  - ${field}: ${abs} cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'}); point it at an existing ${what} (relative to the hosts file), or remove the field`,
        { cause: err },
      );
    }
    return abs;
  };
  if (file.sshConfig) file.sshConfig = await readable('sshConfig', file.sshConfig, 'ssh_config file');
  const r = file.redis;
  if ('url' in r) {
    if (r.ca !== undefined) r.ca = await readable('redis.ca', r.ca, 'PEM file');
  } else if (r.tls) {
    for (const k of ['ca', 'cert', 'key'] as const) {
      r.tls[k] = await readable(`redis.tls.${k}`, r.tls[k], 'PEM file');
    }
  }
  return file;
}
