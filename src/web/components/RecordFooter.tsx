/** The footer line with the company and the filing (record) number from the public settings. */
import Link from '@mui/material/Link';
import Typography from '@mui/material/Typography';
import type { SxProps } from '@mui/material/styles';

export interface RecordFooterProps {
  compName?: string;
  recordNumber?: string;
  sx?: SxProps;
}

export function RecordFooter({ compName, recordNumber, sx }: RecordFooterProps) {
  if (!compName && !recordNumber) return null;
  return (
    <Typography variant="body2" component="footer" sx={sx} data-testid="record-number">
      {compName ? `版权所有 © ${compName}` : ''}
      {compName && recordNumber ? ' | ' : ''}
      {recordNumber ? (
        <Link href="https://beian.miit.gov.cn/" target="_blank" rel="noopener noreferrer" color="inherit" underline="hover">
          {recordNumber}
        </Link>
      ) : null}
    </Typography>
  );
}
