/**
 * One collapsible section of the education step (教育信息 / 培训信息 / 工作信息): the
 * applicant's entries as cards with a 删除 link, and the add form with its own save button.
 * The form checks the entity schema's rules and the step's cross-field rule before sending;
 * the server checks them again.
 */
import { DateField } from '../components/DateFields.tsx';
import { useCallback, useEffect, useState, type ReactNode } from 'react';
import Accordion from '@mui/material/Accordion';
import AccordionDetails from '@mui/material/AccordionDetails';
import AccordionSummary from '@mui/material/AccordionSummary';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Dialog from '@mui/material/Dialog';
import DialogActions from '@mui/material/DialogActions';
import DialogContent from '@mui/material/DialogContent';
import DialogTitle from '@mui/material/DialogTitle';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import Link from '@mui/material/Link';
import MenuItem from '@mui/material/MenuItem';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import { optionLabel } from '../../shared/resource-spec.ts';
import { api } from './api.ts';
import { formProblems, specOf, toBody, type Errors, type Values } from './formCheck.ts';
import { CHECK_NOTICE_MS, type Notice } from './notice.tsx';
import { textOf } from '../common/text.ts';
import { MUTED_TEXT } from '../common/palette.ts';

export interface EntryField {
  name: string;
  kind?: 'text' | 'date' | 'select' | 'radio' | 'textarea';
}

export interface EntrySectionProps {
  entity: 'staffunEducation' | 'staffunPx' | 'staffunWork';
  title: string;
  fields: EntryField[];
  /** the card's heading and lines for a stored entry */
  card: (record: Values) => { heading: string; lines: string[] };
  saveLabel: string;
  savedText: string;
  /** the step's rule across fields (dates, referee phone), checked after the field rules */
  rule: (values: Values) => string | undefined;
  staffunId: number;
  expanded: boolean;
  onToggle: () => void;
  notify: (n: Notice) => void;
  /** an applicant call failed with 401: the registration has ended */
  onExpired: (message: string) => void;
  /** the number of stored entries changed */
  onCount?: (count: number) => void;
}

export function EntrySection(props: EntrySectionProps) {
  const { entity, title, fields, staffunId, notify, onExpired, onCount } = props;
  const spec = specOf(entity);
  const names = fields.map((f) => f.name);
  const blank = useCallback(
    () =>
      Object.fromEntries(
        fields.map((f) => [f.name, f.kind === 'radio' ? textOf(spec.fields.find((s) => s.name === f.name)?.default) : '']),
      ),
    [fields, spec],
  );
  const [entries, setEntries] = useState<Values[] | null>(null);
  const [values, setValues] = useState<Values>(blank);
  const [errors, setErrors] = useState<Errors>({});
  const [saving, setSaving] = useState(false);
  const [pendingDelete, setPendingDelete] = useState<number | null>(null);

  const fail = useCallback(
    (err: unknown) => {
      const e = err as { status?: number; message: string };
      if (e.status === 401) onExpired(e.message);
      else notify({ type: 'error', text: e.message });
    },
    [notify, onExpired],
  );

  // the saved entries, newest first; the answer's state is set in the promise's callbacks
  const load = useCallback(
    () =>
      api<{ content: Values[] }>('GET', `api/${entity}`, undefined, { staffunId, page: 0, size: 99999, sort: 'id,desc' })
        .then((page) => {
          setEntries(page.content);
          onCount?.(page.content.length);
        })
        .catch((err: unknown) => {
          setEntries([]);
          fail(err);
        }),
    [entity, staffunId, fail, onCount],
  );

  useEffect(() => {
    void load();
  }, [load]);

  const field = (name: string) => spec.fields.find((f) => f.name === name)!;

  const save = async () => {
    const problems = formProblems(spec, names, values);
    const first = names.find((n) => problems[n]);
    if (first) {
      setErrors(problems);
      notify({ type: 'error', text: problems[first], duration: CHECK_NOTICE_MS });
      document.querySelector<HTMLElement>(`[data-entity="${entity}"] [name="${first}"]`)?.focus();
      return;
    }
    const broken = props.rule(values);
    if (broken) {
      setErrors({});
      notify({ type: 'error', text: broken, duration: CHECK_NOTICE_MS });
      return;
    }
    setSaving(true);
    try {
      await api('POST', `api/${entity}`, { ...toBody(spec, names, values), staffunId });
      notify({ type: 'success', text: props.savedText });
      setValues(blank());
      setErrors({});
      await load();
    } catch (err) {
      fail(err);
    } finally {
      setSaving(false);
    }
  };

  const remove = async () => {
    const id = pendingDelete;
    setPendingDelete(null);
    if (id === null) return;
    try {
      await api('DELETE', `api/${entity}`, [id]);
      notify({ type: 'success', text: '删除成功' });
      await load();
    } catch (err) {
      fail(err);
    }
  };

  const input = (f: EntryField): ReactNode => {
    const spec_ = field(f.name);
    const common = {
      name: f.name,
      label: spec_.title,
      value: textOf(values[f.name]),
      onChange: (e: { target: { value: string } }) => {
        setValues((v) => ({ ...v, [f.name]: e.target.value }));
        setErrors((er) => {
          const next = { ...er };
          delete next[f.name];
          return next;
        });
      },
      error: !!errors[f.name],
      helperText: errors[f.name],
      required: spec_.required,
      fullWidth: true,
      margin: 'dense' as const,
      size: 'small' as const,
    };
    if (f.kind === 'radio') {
      return (
        <FormControl key={f.name} margin="dense" fullWidth>
          <FormLabel sx={{ fontSize: 13 }}>{spec_.title}</FormLabel>
          <RadioGroup row name={f.name} value={common.value} onChange={common.onChange}>
            {(spec_.options ?? []).map((o) => (
              <FormControlLabel key={String(o.value)} value={String(o.value)} control={<Radio size="small" />} label={o.label} />
            ))}
          </RadioGroup>
        </FormControl>
      );
    }
    if (f.kind === 'select') {
      return (
        <TextField key={f.name} select {...common}>
          {(spec_.options ?? []).map((o) => (
            <MenuItem key={String(o.value)} value={String(o.value)}>
              {o.label}
            </MenuItem>
          ))}
        </TextField>
      );
    }
    if (f.kind === 'date')
      return (
        <DateField
          key={f.name}
          name={f.name}
          label={spec_.title}
          value={common.value}
          onChange={(v) => common.onChange({ target: { value: v } })}
          error={common.error}
          helperText={common.helperText}
          required={common.required}
          fullWidth
          size="small"
          sx={{ mt: 1, mb: 0.5 }}
        />
      );
    if (f.kind === 'textarea') return <TextField key={f.name} multiline minRows={3} placeholder={spec_.placeholder} {...common} />;
    return <TextField key={f.name} placeholder={spec_.placeholder} {...common} />;
  };

  return (
    <Accordion expanded={props.expanded} onChange={props.onToggle} disableGutters data-entity={entity}>
      <AccordionSummary expandIcon={<ExpandMoreIcon />}>
        <Typography sx={{ fontWeight: 600 }}>
          {title}
          {entries && entries.length ? `（${entries.length}）` : ''}
        </Typography>
      </AccordionSummary>
      <AccordionDetails sx={{ pt: 0 }}>
        {entries === null ? <Typography sx={{ color: MUTED_TEXT, fontSize: 13 }}>正在加载...</Typography> : null}
        {entries && entries.length === 0 ? (
          <Typography sx={{ color: MUTED_TEXT, fontSize: 13, mb: 1 }}>暂无{title}，请在下方添加</Typography>
        ) : null}
        {(entries ?? []).map((r) => {
          const c = props.card(r);
          return (
            <Card key={String(r.id)} variant="outlined" sx={{ mb: 1 }} data-testid={`${entity}-card`}>
              <CardContent sx={{ py: 1, '&:last-child': { pb: 1 } }}>
                <Box sx={{ display: 'flex', justifyContent: 'space-between', alignItems: 'baseline' }}>
                  <Typography sx={{ fontWeight: 600, fontSize: 15 }}>{c.heading}</Typography>
                  <Link
                    component="button"
                    type="button"
                    color="error"
                    underline="hover"
                    sx={{ flexShrink: 0, ml: 1, whiteSpace: 'nowrap' }}
                    onClick={() => setPendingDelete(Number(r.id))}
                  >
                    删除
                  </Link>
                </Box>
                {c.lines.map((line) => (
                  <Typography key={line} sx={{ fontSize: 13, color: '#606266' }}>
                    {line}
                  </Typography>
                ))}
              </CardContent>
            </Card>
          );
        })}
        <Box sx={{ borderTop: '1px dashed #dcdfe6', mt: 1, pt: 1 }}>
          <Typography sx={{ fontSize: 14, color: 'primary.main' }}>添加{title}</Typography>
          {fields.map(input)}
          <Button variant="outlined" fullWidth sx={{ mt: 1 }} onClick={() => void save()} disabled={saving}>
            {saving ? '保存中...' : props.saveLabel}
          </Button>
        </Box>
      </AccordionDetails>
      <Dialog open={pendingDelete !== null} onClose={() => setPendingDelete(null)}>
        <DialogTitle>提示</DialogTitle>
        <DialogContent>确定删除本条数据吗？</DialogContent>
        <DialogActions>
          <Button onClick={() => setPendingDelete(null)}>取消</Button>
          <Button onClick={() => void remove()} color="error" variant="contained">
            确定
          </Button>
        </DialogActions>
      </Dialog>
    </Accordion>
  );
}

/** "本科" for an option value of a field of the entity. */
export function labelOf(entity: string, name: string, value: unknown): string {
  const f = specOf(entity).fields.find((x) => x.name === name);
  return (f && optionLabel(f, value)) ?? textOf(value);
}
