import { BlockList, isIP } from 'node:net';

/**
 * Where webhooks may be delivered (`jst-tracker serve --hook-allow <cidr|host>[,…]`; loopback
 * when not given): address ranges, single addresses and host names. A name is allowed whole,
 * whatever it resolves to; any other name is allowed when the address it resolved to, the one
 * connected to, is in a range (sender.ts connects to exactly the address it checked, so a name
 * that resolves differently a moment later, DNS rebinding, changes nothing).
 */
export class HookAllow {
  private readonly ranges = new BlockList();
  private readonly names = new Set<string>();
  readonly text: string;

  private constructor(entries: string[]) {
    this.text = entries.join(',');
    for (const entry of entries) {
      const [addr, bits] = entry.split('/') as [string, string | undefined];
      const family = isIP(addr);
      if (family !== 0) {
        const type = family === 4 ? 'ipv4' : 'ipv6';
        const prefix = bits === undefined ? (family === 4 ? 32 : 128) : Number(bits);
        if (!/^\d{1,3}$/.test(bits ?? '0') || prefix > (family === 4 ? 32 : 128))
          throw new Error(`--hook-allow: "${entry}" has a prefix length that is not one`);
        this.ranges.addSubnet(addr, prefix, type);
      } else if (bits === undefined && /^[A-Za-z0-9]([A-Za-z0-9-]{0,62})(\.[A-Za-z0-9-]{1,63})*\.?$/.test(entry)) {
        this.names.add(entry.toLowerCase().replace(/\.$/, ''));
      } else {
        throw new Error(`--hook-allow: "${entry}" is neither an address range (127.0.0.0/8, ::1/128), an address, nor a host name`);
      }
    }
  }

  /** `127.0.0.0/8,::1/128` when `spec` is undefined. */
  static parse(spec: string | undefined): HookAllow {
    const entries = (spec ?? '127.0.0.0/8,::1/128')
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '');
    return new HookAllow(entries);
  }

  allowsName(hostname: string): boolean {
    return this.names.has(hostname.toLowerCase().replace(/\.$/, ''));
  }

  allowsAddress(address: string): boolean {
    const family = isIP(address);
    if (family === 0) return false;
    // An IPv4 address written as IPv6 (::ffff:127.0.0.1) is checked as the IPv4 address it is.
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
    if (mapped) return this.ranges.check(mapped[1]!, 'ipv4');
    return this.ranges.check(address, family === 4 ? 'ipv4' : 'ipv6');
  }
}
