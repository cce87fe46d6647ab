// Test certificates (openssl CLI): a CA, a server certificate for
// 127.0.0.1 signed by it, one for another name only, and a hashed CA
// directory (SSL_CERT_DIR). Made once under build/integration/tls/.
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import { BUILD } from './paths.mjs';

export function haveOpenssl() {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

const ssl = (args, cwd) => execFileSync('openssl', args, { cwd, stdio: ['ignore', 'ignore', 'pipe'] });

export function testCerts() {
  const dir = path.join(BUILD, 'integration', 'tls');
  const done = path.join(dir, 'done');
  const files = {
    dir,
    ca: path.join(dir, 'ca.pem'),
    otherCa: path.join(dir, 'other-ca.pem'),
    cert: path.join(dir, 'server.pem'),
    key: path.join(dir, 'server.key'),
    wrongNameCert: path.join(dir, 'wrong-name.pem'),
    wrongNameKey: path.join(dir, 'wrong-name.key'),
    caDir: path.join(dir, 'ca-dir'),
  };
  if (existsSync(done)) return files;
  mkdirSync(files.caDir, { recursive: true });
  for (const ca of ['ca', 'other-ca']) {
    ssl(['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${ca}.key`, '-out', `${ca}.pem`, '-days', '3650',
      '-subj', `/CN=agentic-apply test ${ca}`, '-addext', 'basicConstraints=critical,CA:TRUE', '-addext', 'keyUsage=critical,keyCertSign,cRLSign'], dir);
  }
  const leaf = (name, san) => {
    writeFileSync(path.join(dir, `${name}.ext`), `subjectAltName=${san}\nbasicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\n`);
    ssl(['req', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', `/CN=${name}`], dir);
    ssl(['x509', '-req', '-in', `${name}.csr`, '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', `${name}.pem`,
      '-days', '3650', '-extfile', `${name}.ext`], dir);
  };
  leaf('server', 'IP:127.0.0.1');
  leaf('wrong-name', 'DNS:not-this-host.invalid');
  copyFileSync(files.ca, path.join(files.caDir, 'ca.pem'));
  ssl(['rehash', files.caDir], dir);
  writeFileSync(done, '');
  return files;
}
